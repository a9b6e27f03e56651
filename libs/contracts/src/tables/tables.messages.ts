import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsDefined, IsUUID, ValidateNested } from 'class-validator';
import { BatchCreateRowsBody, BatchDeleteRowsBody, BatchUpdateRowsBody, RowBody, RowListQuery } from './row.dto';
import { CreateTableBody, UpdateTableBody } from './table.dto';

/**
 * What each tables message carries in `params`, checked again by the service's validation pipe
 * (`tables.list` takes PageQuery). Row values stay an open object here: the service checks them
 * against the table's own fields.
 */
export class TableIdParams {
  @IsUUID()
  tableId!: string;
}

export class RowIdParams extends TableIdParams {
  @IsUUID()
  rowId!: string;
}

export class CreateTableParams {
  @IsDefined()
  @ValidateNested()
  @Type(() => CreateTableBody)
  body!: CreateTableBody;
}

export class UpdateTableParams extends TableIdParams {
  @IsDefined()
  @ValidateNested()
  @Type(() => UpdateTableBody)
  body!: UpdateTableBody;
}

export class ListRowsParams extends RowListQuery {
  @IsUUID()
  tableId!: string;
}

export class CreateRowParams extends RowBody {
  @IsUUID()
  tableId!: string;
}

export class UpdateRowParams extends CreateRowParams {
  @IsUUID()
  rowId!: string;
}

export class CreateRowsParams extends BatchCreateRowsBody {
  @IsUUID()
  tableId!: string;
}

export class UpdateRowsParams extends BatchUpdateRowsBody {
  @IsUUID()
  tableId!: string;
}

export class RemoveRowsParams extends BatchDeleteRowsBody {
  @IsUUID()
  tableId!: string;
}

/** The most table ids one `tables.existing-ids` message may ask about. */
export const MAX_TABLE_IDS_PER_LOOKUP = 100;

/** `tables.existing-ids`: ids another context holds (a webhook's `table_ids`), to check against the organization's tables. */
export class ExistingTableIdsParams {
  @IsArray()
  @ArrayMaxSize(MAX_TABLE_IDS_PER_LOOKUP)
  @IsUUID('all', { each: true })
  tableIds!: string[];
}

/** The answer's data: the ids asked about that name a table of the organization, lowercase; the others are unknown to it. */
export interface ExistingTableIds {
  table_ids: string[];
}
