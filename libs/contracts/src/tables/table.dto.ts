import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
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
import { documented, type Presence } from '../presence';
import { FIELD_TYPES, FieldType } from './field-types';
import { FieldOptions } from './table.views';

/** Fields a table may hold (and so a create or update may name). */
export const MAX_FIELDS_PER_TABLE = 200;
export const MAX_NAME_LENGTH = 100;
export const MAX_DESCRIPTION_LENGTH = 2_000;
export const MAX_ICON_LENGTH = 100;

/** Keeps a value as sent, so `"true"` fails a boolean check instead of being converted. */
const AsSent = () => Transform(({ obj, key }) => (obj as Record<string, unknown>)[key]);

/** On create a table's name and fields and a field's name and type must be there; on update nothing must. */
const checkedWhen = (presence: Presence) => (presence === 'required' ? IsDefined() : IsOptional());

/*
 * The rules of a table's and a field's properties, the same on create and update but for whether the
 * property must be there. Each lists its decorators last first, the order in which stacked decorators
 * apply, so a refusal names the same check (the type check before the bounds that assume it).
 */

/** A table's or a field's name: 1 to MAX_NAME_LENGTH characters. */
const Name = (presence: Presence, doc: ApiPropertyOptions = {}) =>
  applyDecorators(MaxLength(MAX_NAME_LENGTH), MinLength(1), IsString(), checkedWhen(presence), AsSent(), documented(presence, { maxLength: MAX_NAME_LENGTH, ...doc }));

/** A field's type, one of FIELD_TYPES. */
const OfFieldType = (presence: Presence, doc: ApiPropertyOptions = {}) =>
  applyDecorators(
    IsIn(FIELD_TYPES as unknown as string[], { message: `$property must be one of ${FIELD_TYPES.join(', ')}` }),
    checkedWhen(presence),
    AsSent(),
    documented(presence, { enum: FIELD_TYPES, enumName: 'FieldType', ...doc }),
  );

/** `is_required`: true or false, never a string that reads like one. */
const RequiredFlag = (doc: ApiPropertyOptions = {}) => applyDecorators(IsBoolean(), IsOptional(), AsSent(), ApiPropertyOptional(doc));

/** `options`: free-form JSON, kept exactly as sent; what it may hold depends on the field type. */
const Options = () => applyDecorators(IsObject(), IsOptional(), JsonData(), ApiPropertyOptional({ type: () => FieldOptions, description: 'type-specific options' }));

export class FieldDefinitionInput {
  @Name('required', { example: 'Due date' })
  name!: string;

  @OfFieldType('required')
  field_type!: FieldType;

  @RequiredFlag({ default: false })
  is_required?: boolean;

  @Options()
  options?: Record<string, unknown>;
}

/** A `fields` entry of a table update: with `id` it changes that field, without it adds one. */
export class FieldChangeInput {
  @ApiPropertyOptional({ format: 'uuid', description: 'the field to change; omit to add a field' })
  @AsSent()
  @IsOptional()
  @IsUUID('all')
  id?: string;

  @Name('optional')
  name?: string;

  @OfFieldType('optional', { description: 'required when adding; cannot change' })
  field_type?: FieldType;

  @RequiredFlag()
  is_required?: boolean;

  @Options()
  options?: Record<string, unknown>;
}

/** A body's `fields`: at most MAX_FIELDS_PER_TABLE entries, each an object checked as its class. */
const Fields = (presence: Presence, entry: new () => object) =>
  applyDecorators(
    Type(() => entry),
    ValidateNested({ each: true, message: '$property must be an object' }),
    ArrayMaxSize(MAX_FIELDS_PER_TABLE),
    IsArray(),
    checkedWhen(presence),
    documented(presence, { type: [entry], maxItems: MAX_FIELDS_PER_TABLE }),
  );

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
  @Name('required', { example: 'Customers' })
  name!: string;

  @Fields('required', FieldDefinitionInput)
  fields!: FieldDefinitionInput[];
}

export class UpdateTableBody extends TableDisplayInput {
  @Name('optional')
  name?: string;

  @Fields('optional', FieldChangeInput)
  fields?: FieldChangeInput[];

  @ApiPropertyOptional({ type: [String], format: 'uuid', description: 'ids of fields to remove' })
  @AsSent()
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_FIELDS_PER_TABLE)
  remove_fields?: string[];
}
