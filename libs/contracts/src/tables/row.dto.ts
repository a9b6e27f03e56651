import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsIn, IsObject, IsOptional, IsString, IsUUID, MaxLength, ValidateNested } from 'class-validator';
import { JsonData } from '../json-data';
import { LimitQuery, PageNumber } from '../pagination';
import { ROW_WRITE_DATA_SCHEMA } from './table.views';

export const MAX_FILTER_LENGTH = 8_192;
/** Rows in one batch request: one transaction, all or nothing. */
export const MAX_BATCH_ROWS = 100;

/** The filter grammar, as the OpenAPI document tells it (docs/api-guide.md has the long form). */
const FILTER_GRAMMAR = [
  'A JSON object, URL-encoded. Keys are field slugs, `created_at`, `updated_at`, or `and` / `or` (arrays of filters); several keys are AND-ed.',
  'A bare value means equality: `{"status":"open"}`. An object holds operators:',
  '`eq` `ne` `gt` `gte` `lt` `lte` (number, currency, date, datetime, text), `in` `nin` (arrays of values),',
  '`contains` (case-insensitive substring for text-like types; membership for multi_select), `starts_with`, `is_empty` (boolean).',
  'Examples: `{"amount":{"gte":100,"lt":500}}`, `{"or":[{"status":"open"},{"priority":{"in":["high","urgent"]}}]}`,',
  '`{"email":{"contains":"@example.com"},"notes":{"is_empty":false}}`.',
  'Unknown slugs or operators, bad JSON and values of the wrong type are a VALIDATION_ERROR whose field starts with `filter`.',
].join(' ');

export class RowBody {
  @ApiProperty({
    ...ROW_WRITE_DATA_SCHEMA,
    description:
      'field values keyed by field slug; null clears a value. An attachment value is an array of at most 20 entries: `AttachmentUploadRef` ' +
      '(a finished upload to attach), `AttachmentKept` (a stored file the value keeps: `{id}` is enough) and `AttachmentLink`.',
  })
  @JsonData()
  @IsDefined()
  @IsObject()
  data!: Record<string, unknown>;
}

export const MAX_CURSOR_LENGTH = 2_048;

/** A rows list is paged by `page` (default 1) or by `cursor`, never both: `page` has no default here so the two can be told apart. */
export class RowListQuery extends LimitQuery {
  @PageNumber()
  page?: number;

  @ApiPropertyOptional({ description: "a previous answer's pagination.next_cursor, with the same sort, order, filter and limit, and no page" })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_CURSOR_LENGTH)
  cursor?: string;

  @ApiPropertyOptional({ description: 'a field slug, `created_at` or `updated_at`; values sort by type, ties by id', default: 'created_at' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  sort?: string;

  @ApiPropertyOptional({ enum: ['asc', 'desc'], default: 'asc' })
  @IsOptional()
  @IsIn(['asc', 'desc'])
  order?: 'asc' | 'desc';

  @ApiPropertyOptional({ description: FILTER_GRAMMAR, example: '{"status":"open","amount":{"gte":100}}', maxLength: MAX_FILTER_LENGTH })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_FILTER_LENGTH)
  filter?: string;
}

export class BatchCreateRowsBody {
  @ApiProperty({ type: [RowBody], minItems: 1, maxItems: MAX_BATCH_ROWS })
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_BATCH_ROWS)
  @ValidateNested({ each: true, message: '$property must be an object' })
  @Type(() => RowBody)
  rows!: RowBody[];

  @ApiPropertyOptional({
    description:
      'the slug of an `is_unique` field: a row whose value of it equals a stored row\'s (compared as stored) updates that row with the given ' +
      'fields only, the others are created; the answer is then 200 with `actions`',
    maxLength: 100,
  })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  upsert_on?: string;
}

/** What an upsert did to each row of its batch, in order. */
export const ROW_ACTIONS = ['created', 'updated', 'unchanged'] as const;
export type RowAction = (typeof ROW_ACTIONS)[number];

export class RowUpdateItem extends RowBody {
  @ApiProperty({ format: 'uuid' })
  @IsDefined()
  @IsUUID('all')
  id!: string;
}

export class BatchUpdateRowsBody {
  @ApiProperty({ type: [RowUpdateItem], minItems: 1, maxItems: MAX_BATCH_ROWS })
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_BATCH_ROWS)
  @ValidateNested({ each: true, message: '$property must be an object' })
  @Type(() => RowUpdateItem)
  rows!: RowUpdateItem[];
}

/** Each id is checked by the service, so an invalid one is named by its index (`ids[2]`). */
export class BatchDeleteRowsBody {
  @ApiProperty({ type: 'array', items: { type: 'string', format: 'uuid' }, minItems: 1, maxItems: MAX_BATCH_ROWS })
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_BATCH_ROWS)
  ids!: string[];
}
