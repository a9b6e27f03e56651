import type { FieldType } from '@contracts';

export const FILTER_OPERATORS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'nin', 'contains', 'starts_with', 'is_empty'] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/** What the grammar needs to know of a field; each context passes its own field shape through. */
export interface FilterField {
  slug: string;
  fieldType: FieldType;
}

/** A filter key: a field, or one of the timestamps every row has. */
export type FilterTarget<F extends FilterField = FilterField> = { kind: 'field'; field: F } | { kind: 'timestamp'; column: 'created_at' | 'updated_at' };

export interface Condition<F extends FilterField = FilterField> {
  kind: 'condition';
  target: FilterTarget<F>;
  operator: FilterOperator;
  /** Already checked and normalized for the target's type (dates as ISO strings, arrays for in/nin). */
  value: unknown;
}

export interface Group<F extends FilterField = FilterField> {
  kind: 'and' | 'or';
  items: FilterNode<F>[];
}

export type FilterNode<F extends FilterField = FilterField> = Condition<F> | Group<F>;

export function targetType(target: FilterTarget): FieldType {
  return target.kind === 'field' ? target.field.fieldType : 'datetime';
}
