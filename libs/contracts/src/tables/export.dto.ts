import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayNotEmpty, ArrayUnique, IsArray, IsDefined, IsIn, IsObject, IsOptional, IsString, IsUUID, Length, MaxLength, ValidateNested } from 'class-validator';
import { JsonData } from '../json-data';
import { MAX_FIELDS_PER_TABLE } from './table.dto';

export const EXPORT_FORMATS = ['csv', 'ndjson'] as const;
/** `expired`: the file was removed (24 h after the export completed); it keeps its counts. */
export const EXPORT_STATUSES = ['queued', 'running', 'completed', 'failed', 'expired'] as const;

export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

/** `POST /tables/{id}/exports`. */
export class CreateExportBody {
  @ApiProperty({ enum: EXPORT_FORMATS, description: 'CSV: a header line of slugs, then one line a row, as an import reads them back. NDJSON: one object of field values a line' })
  @IsDefined()
  @IsIn(EXPORT_FORMATS)
  format!: ExportFormat;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    example: { status: 'open', amount: { gte: 100 } },
    description: 'The rows list filter grammar, as a JSON object (keys are field slugs, `created_at`, `updated_at`, `and`, `or`); only matching rows are exported',
  })
  @JsonData()
  @IsOptional()
  @IsObject({ message: 'filter must be a JSON object of conditions' })
  filter?: Record<string, unknown>;

  @ApiPropertyOptional({ description: 'a field slug, `created_at` or `updated_at`, as in the rows list (`created_at` when only `order` is given); without `sort` or `order` the rows come in no particular order' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  sort?: string;

  @ApiPropertyOptional({ enum: ['asc', 'desc'], description: 'with `sort`, ascending unless given' })
  @IsOptional()
  @IsIn(['asc', 'desc'])
  order?: 'asc' | 'desc';

  @ApiPropertyOptional({
    type: [String],
    minItems: 1,
    maxItems: MAX_FIELDS_PER_TABLE,
    uniqueItems: true,
    description: 'the slugs of the fields to export, in this order; every field of the table, in its order, when left out',
  })
  @IsOptional()
  @IsArray()
  @ArrayNotEmpty({ message: 'fields must not be empty: leave it out to export every field' })
  @ArrayMaxSize(MAX_FIELDS_PER_TABLE)
  @IsString({ each: true, message: 'fields must hold field slugs' })
  @Length(1, 100, { each: true, message: 'fields must hold field slugs' })
  @ArrayUnique({ message: 'fields must not name a field twice' })
  fields?: string[];
}

export class ExportView {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ format: 'uuid' })
  table_id!: string;

  @ApiProperty({ enum: EXPORT_STATUSES })
  status!: ExportStatus;

  @ApiProperty({ enum: EXPORT_FORMATS })
  format!: ExportFormat;

  @ApiProperty({ type: 'integer', description: 'rows written so far; moves at least once a second while the export runs' })
  rows_done!: number;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ format: 'date-time', nullable: true, type: 'string' })
  finished_at!: string | null;

  @ApiProperty({ nullable: true, type: 'string', format: 'uri', description: 'while `completed`: a presigned GET of the file, valid for 1 h from this answer' })
  download_url!: string | null;

  @ApiProperty({ format: 'date-time', nullable: true, type: 'string', description: 'once `completed`: when the file is removed (24 h after it was written)' })
  expires_at!: string | null;
}

export class CreateExportParams {
  @IsUUID()
  tableId!: string;

  @IsDefined()
  @ValidateNested()
  @Type(() => CreateExportBody)
  body!: CreateExportBody;
}

export class ExportIdParams {
  @IsUUID()
  tableId!: string;

  @IsUUID()
  exportId!: string;
}
