import { randomUUID } from 'node:crypto';
import { isFieldType } from '@contracts';
import { AppError } from '@platform/errors';
import { fieldColumnName } from '../storage/identifiers';
import type { Field } from './field';
import { validateFieldOptions } from './field-options';
import { RESERVED_FIELD_SLUGS, slugOrIdSlug } from './slug';

export interface FieldInput {
  name?: string;
  field_type?: string;
  is_required?: boolean;
  options?: Record<string, unknown>;
}

/** A slug for field `id` named `name` at `path`, checked against the reserved keys and the table's other slugs. */
function fieldSlug(name: string, id: string, path: string, taken: ReadonlySet<string>): string {
  const slug = slugOrIdSlug(name, 'f', id);
  if (RESERVED_FIELD_SLUGS.has(slug)) throw AppError.validation(`${path}.name`, `gives the reserved slug ${slug}`);
  if (taken.has(slug)) throw AppError.validation(`${path}.name`, `gives the slug ${slug}, which another field of this table has`);
  return slug;
}

/** A new field from its definition; `taken` receives its slug. */
export function newField(input: FieldInput, path: string, taken: Set<string>): Field {
  if (typeof input.name !== 'string') throw AppError.validation(`${path}.name`, 'is required');
  if (!isFieldType(input.field_type)) throw AppError.validation(`${path}.field_type`, 'is required');
  const id = randomUUID();
  const slug = fieldSlug(input.name, id, path, taken);
  taken.add(slug);
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
