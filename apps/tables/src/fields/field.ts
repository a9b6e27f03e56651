import type { FieldType } from '@contracts';

/** Options after validation, with defaults filled in. */
export interface FieldOptions {
  precision?: number;
  currency?: string;
  values?: string[];
  default_country?: string;
  /** Enforced by a unique index on the column (text, number, email, url, phone). */
  is_unique?: boolean;
  /** Served by a trigram index for `contains` and `starts_with` (text, long_text, email, url, phone, select). */
  searchable?: boolean;
}

/** A field as the service knows it: what clients see plus the server-generated column that stores it. */
export interface Field {
  id: string;
  name: string;
  slug: string;
  fieldType: FieldType;
  isRequired: boolean;
  options: FieldOptions;
  /** Server-generated (`f_<field id hex>`); the only kind of name that ever reaches DDL or SQL. */
  column: string;
}
