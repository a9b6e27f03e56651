import { randomUUID } from 'node:crypto';
import { isFieldType } from '@contracts';
import { AppError } from '@platform/errors';
import { fieldColumnName } from '../storage/identifiers';
import type { Field } from './field';
import { validateFieldOptions } from './field-options';
import { RESERVED_FIELD_SLUGS, slugify } from './slug';

export interface FieldInput {
  name?: string;
  field_type?: string;
  is_required?: boolean;
  options?: Record<string, unknown>;
}

/** A slug for a name at `path`, checked against the reserved keys and the table's other slugs. */
export function fieldSlug(name: string, path: string, taken: ReadonlySet<string>): string {
  const slug = slugify(name);
  if (!slug) throw AppError.validation(`${path}.name`, 'must contain at least one letter or digit');
  if (RESERVED_FIELD_SLUGS.has(slug)) throw AppError.validation(`${path}.name`, `gives the reserved slug ${slug}`);
  if (taken.has(slug)) throw AppError.validation(`${path}.name`, `gives the slug ${slug}, which another field of this table has`);
  return slug;
}

/** A new field from its definition; `taken` receives its slug. */
export function newField(input: FieldInput, path: string, taken: Set<string>): Field {
  if (typeof input.name !== 'string') throw AppError.validation(`${path}.name`, 'is required');
  if (!isFieldType(input.field_type)) throw AppError.validation(`${path}.field_type`, 'is required');
  const slug = fieldSlug(input.name, path, taken);
  taken.add(slug);
  const id = randomUUID();
  return {
    id,
    name: input.name,
    slug,
    fieldType: input.field_type,
    isRequired: input.is_required ?? false,
    options: validateFieldOptions(input.field_type, input.options, `${path}.options`),
    column: fieldColumnName(id),
  };
}
