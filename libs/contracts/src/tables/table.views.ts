import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { FIELD_TYPES, FieldType } from './field-types';
import { AttachmentFile, AttachmentKept, AttachmentLink, AttachmentUploadRef } from './upload.dto';

/** Type-specific options of a field; each type takes only its own (the service refuses the others). */
export class FieldOptions {
  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 10, description: '`number` (values rounded half away from zero) and `currency` (default 2)' })
  precision?: number;

  @ApiPropertyOptional({ pattern: '^[A-Z]{3}$', example: 'EUR', description: '`currency`: an ISO 4217 code, default `USD`' })
  currency?: string;

  @ApiPropertyOptional({ type: [String], description: '`select` and `multi_select` (required there): distinct, non-empty' })
  values?: string[];

  @ApiPropertyOptional({ pattern: '^[A-Z]{2}$', example: 'DE', description: '`phone`: ISO 3166 alpha-2 country of numbers written without a country code' })
  default_country?: string;

  @ApiPropertyOptional({
    default: false,
    description:
      '`text`, `number`, `email`, `url` and `phone`: no two rows of the table hold the same value. A create or update that would repeat one is a `CONFLICT` naming `data.<slug>` (`rows[i].data.<slug>` in a batch); turning it on over existing repeats is a `VALIDATION_ERROR` naming the field',
  })
  is_unique?: boolean;

  @ApiPropertyOptional({
    default: false,
    description:
      '`text`, `long_text`, `email`, `url`, `phone` and `select`: `contains` and `starts_with` filters on this field are served by a trigram index instead of reading every row. Without it they answer the same rows, reading the table; with it every write of the field also writes the index. Turned on, the index is built in the background after the change',
  })
  searchable?: boolean;
}

export class FieldView {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ example: 'Due date' })
  name!: string;

  @ApiProperty({ example: 'due_date', description: 'the key of this field in row data; never changes' })
  slug!: string;

  @ApiProperty({ enum: FIELD_TYPES, enumName: 'FieldType' })
  field_type!: FieldType;

  @ApiProperty()
  is_required!: boolean;

  @ApiProperty({ type: () => FieldOptions })
  options!: FieldOptions;
}

export class TableListItem {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ example: 'Customers' })
  name!: string;

  @ApiProperty({ example: 'customers', description: 'follows the name' })
  slug!: string;

  @ApiProperty({ type: String, nullable: true })
  description!: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'an icon identifier' })
  icon!: string | null;

  @ApiProperty({ type: 'integer', minimum: 0 })
  row_count!: number;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ format: 'date-time' })
  updated_at!: string;
}

export class TableDetail extends TableListItem {
  @ApiProperty({ type: [FieldView] })
  fields!: FieldView[];
}

/**
 * One value of row data, by field type: text-like types, `date` (`YYYY-MM-DD`), `datetime` (UTC `Z`),
 * `select`, `email`, `url` and `phone` (E.164) are strings; `number` and `currency` numbers; `checkbox`
 * a boolean; `multi_select` an array of strings; `attachment` an array of entries (`entries`); unset is null.
 */
function rowValueSchema(entries: readonly (abstract new () => unknown)[]) {
  return {
    anyOf: [
      // OpenAPI 3.0 allows `nullable` only beside a `type`: null rides on the first alternative.
      { type: 'string', nullable: true },
      { type: 'number' },
      { type: 'boolean' },
      { type: 'array', items: { type: 'string' } },
      { type: 'array', items: { anyOf: entries.map((entry) => ({ $ref: getSchemaPath(entry) })) } },
    ],
  };
}

/** The most a row's `data` may weigh as JSON (UTF-8 bytes): a write that would pass it is a VALIDATION_ERROR. */
export const ROW_DATA_MAX_BYTES = 512 * 1024;

/** Field values keyed by field slug, as answers and events show them: an attachment holds stored files and links. */
export const ROW_DATA_SCHEMA = {
  type: 'object',
  additionalProperties: rowValueSchema([AttachmentFile, AttachmentLink]),
  example: { email: 'ada@example.com', amount: 12.5, tags: ['new'] },
} as const;

/** Field values keyed by field slug, as a write sends them: an attachment holds uploads to attach, kept files and links. */
export const ROW_WRITE_DATA_SCHEMA = {
  ...ROW_DATA_SCHEMA,
  additionalProperties: rowValueSchema([AttachmentUploadRef, AttachmentKept, AttachmentLink]),
} as const;

export class RowView {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ ...ROW_DATA_SCHEMA, description: 'every field of the table, keyed by slug; unset values are null' })
  data!: Record<string, unknown>;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ format: 'date-time' })
  updated_at!: string;
}

/** Models only reachable through a `$ref` in a schema literal; the document must list them itself. */
export const TABLES_EXTRA_MODELS = [AttachmentFile, AttachmentLink, AttachmentUploadRef, AttachmentKept];
