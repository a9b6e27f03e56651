import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { JsonData } from '../json-data';
import { FIELD_TYPES, FieldType } from './field-types';
import { FieldOptions } from './table.views';

/** Fields a table may hold (and so a create or update may name). */
export const MAX_FIELDS_PER_TABLE = 200;
export const MAX_NAME_LENGTH = 100;
export const MAX_DESCRIPTION_LENGTH = 2_000;
export const MAX_ICON_LENGTH = 100;

/** Keeps a value as sent, so `"true"` fails a boolean check instead of being converted. */
const AsSent = () => Transform(({ obj, key }) => (obj as Record<string, unknown>)[key]);

export class FieldDefinitionInput {
  @ApiProperty({ maxLength: MAX_NAME_LENGTH, example: 'Due date' })
  @AsSent()
  @IsDefined()
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_NAME_LENGTH)
  name!: string;

  @ApiProperty({ enum: FIELD_TYPES, enumName: 'FieldType' })
  @AsSent()
  @IsDefined()
  @IsIn(FIELD_TYPES as unknown as string[], { message: `$property must be one of ${FIELD_TYPES.join(', ')}` })
  field_type!: FieldType;

  @ApiPropertyOptional({ default: false })
  @AsSent()
  @IsOptional()
  @IsBoolean()
  is_required?: boolean;

  @ApiPropertyOptional({ type: () => FieldOptions, description: 'type-specific options' })
  @JsonData()
  @IsOptional()
  @IsObject()
  options?: Record<string, unknown>;
}

/** A `fields` entry of a table update: with `id` it changes that field, without it adds one. */
export class FieldChangeInput {
  @ApiPropertyOptional({ format: 'uuid', description: 'the field to change; omit to add a field' })
  @AsSent()
  @IsOptional()
  @IsUUID('all')
  id?: string;

  @ApiPropertyOptional({ maxLength: MAX_NAME_LENGTH })
  @AsSent()
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_NAME_LENGTH)
  name?: string;

  @ApiPropertyOptional({ enum: FIELD_TYPES, enumName: 'FieldType', description: 'required when adding; cannot change' })
  @AsSent()
  @IsOptional()
  @IsIn(FIELD_TYPES as unknown as string[], { message: `$property must be one of ${FIELD_TYPES.join(', ')}` })
  field_type?: FieldType;

  @ApiPropertyOptional()
  @AsSent()
  @IsOptional()
  @IsBoolean()
  is_required?: boolean;

  @ApiPropertyOptional({ type: () => FieldOptions, description: 'type-specific options' })
  @JsonData()
  @IsOptional()
  @IsObject()
  options?: Record<string, unknown>;
}

/** A table's optional display attributes, the same on create and update. */
class TableDisplayInput {
  @ApiPropertyOptional({ type: String, maxLength: MAX_DESCRIPTION_LENGTH, nullable: true })
  @AsSent()
  @IsOptional()
  @IsString()
  @MaxLength(MAX_DESCRIPTION_LENGTH)
  description?: string | null;

  @ApiPropertyOptional({ type: String, maxLength: MAX_ICON_LENGTH, nullable: true, description: 'an icon identifier' })
  @AsSent()
  @IsOptional()
  @IsString()
  @MaxLength(MAX_ICON_LENGTH)
  icon?: string | null;
}

export class CreateTableBody extends TableDisplayInput {
  @ApiProperty({ maxLength: MAX_NAME_LENGTH, example: 'Customers' })
  @AsSent()
  @IsDefined()
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_NAME_LENGTH)
  name!: string;

  @ApiProperty({ type: [FieldDefinitionInput], maxItems: MAX_FIELDS_PER_TABLE })
  @IsDefined()
  @IsArray()
  @ArrayMaxSize(MAX_FIELDS_PER_TABLE)
  @ValidateNested({ each: true, message: '$property must be an object' })
  @Type(() => FieldDefinitionInput)
  fields!: FieldDefinitionInput[];
}

export class UpdateTableBody extends TableDisplayInput {
  @ApiPropertyOptional({ maxLength: MAX_NAME_LENGTH })
  @AsSent()
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_NAME_LENGTH)
  name?: string;

  @ApiPropertyOptional({ type: [FieldChangeInput], maxItems: MAX_FIELDS_PER_TABLE })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_FIELDS_PER_TABLE)
  @ValidateNested({ each: true, message: '$property must be an object' })
  @Type(() => FieldChangeInput)
  fields?: FieldChangeInput[];

  @ApiPropertyOptional({ type: [String], format: 'uuid', description: 'ids of fields to remove' })
  @AsSent()
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_FIELDS_PER_TABLE)
  remove_fields?: string[];
}
