import type { FieldView } from './field-drafts';

/** One condition of the builder: a field (or created_at/updated_at), an operator and the operand as typed. */
export interface Condition {
  slug: string;
  op: string;
  value: string;
}

const ORDERED = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'nin', 'is_empty'];
const TEXT_LIKE = [...ORDERED, 'contains', 'starts_with'];

/** The operators the rows list takes for a field's type. */
export function operatorsFor(type: FieldView['field_type'] | 'timestamp'): string[] {
  switch (type) {
    case 'text':
    case 'long_text':
    case 'email':
    case 'url':
    case 'phone':
      return TEXT_LIKE;
    case 'number':
    case 'currency':
    case 'date':
    case 'datetime':
      return ORDERED;
    case 'timestamp':
      return ['eq', 'ne', 'gt', 'gte', 'lt', 'lte'];
    case 'checkbox':
      return ['eq', 'ne', 'is_empty'];
    case 'select':
      return ['eq', 'ne', 'in', 'nin', 'is_empty'];
    case 'multi_select':
      return ['contains', 'is_empty'];
    case 'attachment':
      return ['is_empty'];
  }
}

export const OPERATOR_WORDS: Record<string, string> = {
  eq: 'is',
  ne: 'is not',
  gt: 'greater than',
  gte: 'at least',
  lt: 'less than',
  lte: 'at most',
  in: 'is one of',
  nin: 'is none of',
  contains: 'contains',
  starts_with: 'starts with',
  is_empty: 'is empty',
};

/** An operand as the API expects it for the field's type: numbers, flags, lists split on commas. */
function operand(type: FieldView['field_type'] | 'timestamp', op: string, text: string): unknown {
  if (op === 'is_empty') return text !== 'false';
  if (op === 'in' || op === 'nin') return text.split(',').map((part) => single(type, part.trim()));
  return single(type, text);
}

function single(type: FieldView['field_type'] | 'timestamp', text: string): unknown {
  if ((type === 'number' || type === 'currency') && text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
  if (type === 'checkbox') return text === 'true';
  return text;
}

/** The rows list's `filter` JSON for the conditions, all of them (`and`) or any (`or`). */
export function filterOf(conditions: Condition[], fields: FieldView[], join: 'and' | 'or'): Record<string, unknown> | undefined {
  const parts = conditions
    .filter((condition) => condition.slug && condition.op)
    .map((condition) => {
      const type = fields.find((field) => field.slug === condition.slug)?.field_type ?? 'timestamp';
      return { [condition.slug]: { [condition.op]: operand(type, condition.op, condition.value) } };
    });
  if (parts.length === 0) return undefined;
  if (parts.length === 1) return parts[0];
  return { [join]: parts };
}
