import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsObject, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';

export const IMPORT_FORMATS = ['csv', 'ndjson'] as const;
export const IMPORT_MODES = ['insert', 'upsert'] as const;
export const IMPORT_ON_ERROR = ['abort', 'skip'] as const;
export const IMPORT_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
/** An import keeps this many of its problems; the rest are only counted. */
export const MAX_IMPORT_ERRORS = 100;

export type ImportFormat = (typeof IMPORT_FORMATS)[number];
export type ImportMode = (typeof IMPORT_MODES)[number];
export type ImportOnError = (typeof IMPORT_ON_ERROR)[number];
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** `POST /tables/{id}/imports`. */
export class CreateImportBody {
  @ApiProperty({ format: 'uuid', description: 'an upload of this table made with purpose "import", its file PUT' })
  @IsDefined()
  @IsUUID('all')
  upload_id!: string;

  @ApiProperty({ enum: IMPORT_FORMATS })
  @IsDefined()
  @IsIn(IMPORT_FORMATS)
  format!: ImportFormat;

  @ApiPropertyOptional({ enum: IMPORT_MODES, default: 'insert', description: '`upsert` updates the row holding a line\'s `upsert_on` value, like a batch upsert' })
  @IsOptional()
  @IsIn(IMPORT_MODES)
  mode?: ImportMode;

  @ApiPropertyOptional({ description: 'with mode `upsert`: the slug of an `is_unique` field', maxLength: 100 })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  upsert_on?: string;

  @ApiPropertyOptional({ enum: IMPORT_ON_ERROR, default: 'abort', description: '`abort`: any problem writes nothing; `skip`: good lines are written, bad ones counted' })
  @IsOptional()
  @IsIn(IMPORT_ON_ERROR)
  on_error?: ImportOnError;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string', nullable: true },
    description: 'CSV: maps a header column to a field slug, or to null to skip it; other columns map to the field whose name or slug they equal (case-insensitive)',
  })
  @IsOptional()
  @IsObject()
  columns?: Record<string, string | null>;
}

export class ImportProblem {
  @ApiProperty({ type: 'integer', description: 'the line of the file (1 is a CSV header)' })
  line!: number;

  @ApiProperty({ nullable: true, type: 'string', description: 'the field slug or column the problem is about, when there is one' })
  field!: string | null;

  @ApiProperty({ description: 'VALIDATION_ERROR, CONFLICT or BAD_REQUEST' })
  code!: string;

  @ApiProperty()
  message!: string;
}

export class ImportView {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ format: 'uuid' })
  table_id!: string;

  @ApiProperty({ enum: IMPORT_STATUSES })
  status!: ImportStatus;

  @ApiProperty({ enum: IMPORT_FORMATS })
  format!: ImportFormat;

  @ApiProperty({ enum: IMPORT_MODES })
  mode!: ImportMode;

  @ApiProperty({ enum: IMPORT_ON_ERROR })
  on_error!: ImportOnError;

  @ApiProperty({ type: 'integer', description: 'lines read so far; moves at least once a second while the import runs' })
  rows_done!: number;

  @ApiProperty({ type: 'integer' })
  rows_created!: number;

  @ApiProperty({ type: 'integer' })
  rows_updated!: number;

  @ApiProperty({ type: 'integer' })
  rows_failed!: number;

  @ApiProperty({ type: [ImportProblem], description: `the first ${MAX_IMPORT_ERRORS} problems` })
  errors!: ImportProblem[];

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ format: 'date-time', nullable: true, type: 'string' })
  started_at!: string | null;

  @ApiProperty({ format: 'date-time', nullable: true, type: 'string' })
  finished_at!: string | null;
}
