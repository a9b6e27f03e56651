import { AppError } from '@platform/errors';
import type { Field } from '../fields/field';
import { COLUMN_KINDS } from '../storage/column-types';
import { ident } from '../storage/identifiers';

export type SortOrder = 'asc' | 'desc';

/**
 * ORDER BY for a row list: the sort key in its type's order, then the id, both in the asked direction,
 * so each sort key walks one btree index (key, id) forwards or backwards and ties are stable across pages.
 * Empty values come last ascending and first descending (Postgres's NULL order, which keeps the index usable).
 */
export function orderBy(sort: string | undefined, order: SortOrder | undefined, fields: readonly Field[]): string {
  const direction = order === 'desc' ? 'DESC' : 'ASC';
  const key = sort ?? 'created_at';
  let terms: string[];
  if (key === 'created_at' || key === 'updated_at') {
    terms = [ident(key)];
  } else {
    const field = fields.find((candidate) => candidate.slug === key);
    if (!field) throw AppError.validation('sort', 'must be a field slug, created_at or updated_at');
    terms = COLUMN_KINDS[field.fieldType].sortTerms(ident(field.column));
  }
  return [...terms, ident('id')].map((term) => `${term} ${direction}`).join(', ');
}
