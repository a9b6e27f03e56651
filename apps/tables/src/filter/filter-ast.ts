import type { FieldType } from '@contracts';
import type { Field } from '../fields/field';

export const FILTER_OPERATORS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'nin', 'contains', 'starts_with', 'is_empty'] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/** A filter key: a field, or one of the timestamps every row has. */
export type FilterTarget = { kind: 'field'; field: Field } | { kind: 'timestamp'; column: 'created_at' | 'updated_at' };

export interface Condition {
  kind: 'condition';
  target: FilterTarget;
  operator: FilterOperator;
  /** Already checked and normalized for the target's type (dates as ISO strings, arrays for in/nin). */
  value: unknown;
}

export interface Group {
  kind: 'and' | 'or';
  items: FilterNode[];
}

export type FilterNode = Condition | Group;

export function targetType(target: FilterTarget): FieldType {
  return target.kind === 'field' ? target.field.fieldType : 'datetime';
}
