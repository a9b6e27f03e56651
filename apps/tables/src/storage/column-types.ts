import type { FieldType } from '@contracts';

/** Text kinds compare bytewise (COLLATE "C"), so a prefix index orders exactly like the full value. */
const TEXT = 'text COLLATE "C"';

/** Length of the indexed prefix of text values: btree entries must stay far below Postgres's ~2.7 kB limit. */
export const TEXT_SORT_PREFIX = 200;

export interface ColumnKind {
  sqlType: string;
  /** Type of a bind parameter written to the column. */
  castType: string;
  /** How the column is ordered and indexed; undefined: sortable but not indexed (rarely sorted, or too large). */
  indexExpression?: (column: string) => string;
  /** ORDER BY terms before the id tie-breaker. */
  sortTerms: (column: string) => string[];
  /** Select-list expression turning the stored value into its JSON form. */
  selectExpression: (column: string) => string;
}

const plain = (column: string) => column;
const prefix = (column: string) => `left(${column}, ${TEXT_SORT_PREFIX})`;

const SCALAR: ColumnKind = { sqlType: '', castType: '', indexExpression: plain, sortTerms: (c) => [c], selectExpression: plain };
const TEXTUAL: ColumnKind = {
  sqlType: TEXT,
  castType: 'text',
  indexExpression: prefix,
  // The prefix matches the index; the full value settles rows whose first 200 characters are equal.
  sortTerms: (c) => [prefix(c), c],
  selectExpression: plain,
};

export const COLUMN_KINDS: Record<FieldType, ColumnKind> = {
  text: TEXTUAL,
  long_text: { ...TEXTUAL, indexExpression: undefined },
  email: TEXTUAL,
  url: TEXTUAL,
  phone: TEXTUAL,
  // Select values are at most 200 characters, so the whole value is indexed and equality filters use it too.
  select: { ...TEXTUAL, indexExpression: plain, sortTerms: (c) => [c] },
  number: { ...SCALAR, sqlType: 'numeric', castType: 'numeric', selectExpression: (c) => `${c}::float8` },
  currency: { ...SCALAR, sqlType: 'numeric', castType: 'numeric', selectExpression: (c) => `${c}::float8` },
  date: { ...SCALAR, sqlType: 'date', castType: 'date', selectExpression: (c) => `to_char(${c}, 'YYYY-MM-DD')` },
  datetime: { ...SCALAR, sqlType: 'timestamptz', castType: 'timestamptz' },
  checkbox: { ...SCALAR, sqlType: 'boolean', castType: 'boolean' },
  multi_select: { ...SCALAR, sqlType: 'text[] COLLATE "C"', castType: 'text[]', indexExpression: undefined },
  attachment: { ...SCALAR, sqlType: 'jsonb', castType: 'jsonb', indexExpression: undefined },
};
