import { Type } from 'class-transformer';
import { IsDefined, IsUUID, ValidateNested } from 'class-validator';
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
