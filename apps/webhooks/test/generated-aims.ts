import type { FieldType } from '@contracts';
import { checkFilter } from '@platform/row-filter';
import type { AimSettings } from '../src/dispatch/webhook-aim';

/**
 * Seeded generators of webhook filters, aims, rows and events for the specs that hold the fan-out's
 * indexes to the plain matchers: every operator on every field type, nested and/or, operands that
 * collide with row values in case, precision and type, missing and null values, malformed events.
 */
export class Generator {
  private state: number;

  constructor(seed: number) {
    this.state = seed;
  }

  /** mulberry32: small, seeded, good enough to spread cases. */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = Math.imul(this.state ^ (this.state >>> 15), 1 | this.state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(below: number): number {
    return Math.floor(this.next() * below);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  /** 1 to `most` distinct items. */
  some<T>(items: readonly T[], most = 3): T[] {
    const count = 1 + this.int(Math.min(most, items.length));
    const chosen = new Set<T>();
    while (chosen.size < count) chosen.add(this.pick(items));
    return [...chosen];
  }
}

export const FIELD_TYPES: Record<string, FieldType> = {
  title: 'text',
  notes: 'long_text',
  mail: 'email',
  site: 'url',
  phone: 'phone',
  stage: 'select',
  amount: 'number',
  price: 'currency',
  due: 'date',
  seen: 'datetime',
  done: 'checkbox',
  tags: 'multi_select',
  files: 'attachment',
};
const SLUGS = Object.keys(FIELD_TYPES);
const TEXTUAL = new Set<FieldType>(['text', 'long_text', 'email', 'url', 'phone', 'select']);

const TEXTS = ['deal', 'Deal 1', 'DEAL 2', 'dealer', 'de', '', 'İstanbul', 'istanbul', 'i̇stanbul', 'Straße', 'STRASSE', 'emea', 'EMEA', 'apac', ' deal', 'ß', 'won', 'open', 'Won'];
const NUMBERS = [0, -0, 1, 1.5, -3, 100, 4999, 5000, 1e21];
const DATES = ['2026-03-01', '2026-02-28', '2026-12-31', '2025-03-01'];
/** Operands the grammar accepts (it normalizes them to UTC with milliseconds). */
const DATETIME_OPERANDS = ['2026-03-01T10:00:00Z', '2026-03-01T11:00:00+01:00', '2026-03-01T09:59:59.999Z', '2026-03-01T10:00:00.000Z', '2025-03-01T00:00:00Z'];
/** Values rows may hold, well formed or not. */
const DATETIME_VALUES = [...DATETIME_OPERANDS, '2026-03-01T10:00:00.0004Z', '2026-03-01', 'not a date', '2026-03-01T10:00:00.000+00:00'];
const TAGS = ['vip', 'eu', 'us'];
const WRONG_TYPES: unknown[] = [5, 'deal', true, false, [], ['vip'], {}, '2026-03-01T10:00:00Z', 0];

const OPERATORS = ['eq', 'eq', 'eq', 'in', 'in', 'starts_with', 'starts_with', 'ne', 'nin', 'gt', 'gte', 'lt', 'lte', 'contains', 'is_empty'] as const;

function text(g: Generator): string {
  const whole = g.pick(TEXTS);
  // A prefix or a middle of a value, in another case now and then: what starts_with and contains look for.
  const cut = g.chance(0.5) ? whole.slice(0, g.int(whole.length + 1)) : whole.slice(g.int(whole.length + 1));
  const part = g.chance(0.5) ? whole : cut;
  return g.chance(0.2) ? part.toUpperCase() : part;
}

/** A value of the type as a filter operand or a row holds it (`datetimes`: the pool to draw instants from). */
function scalarOf(g: Generator, type: FieldType, datetimes: readonly string[] = DATETIME_OPERANDS): unknown {
  if (TEXTUAL.has(type)) return g.chance(0.7) ? g.pick(TEXTS) : text(g);
  switch (type) {
    case 'number':
    case 'currency':
      return g.pick(NUMBERS);
    case 'date':
      return g.pick(DATES);
    case 'datetime':
      return g.pick(datetimes);
    case 'checkbox':
      return g.chance(0.5);
    default:
      return g.pick(TAGS);
  }
}

function operandOf(g: Generator, type: FieldType, operator: string): unknown {
  switch (operator) {
    case 'is_empty':
      return g.chance(0.5);
    case 'in':
    case 'nin':
      return Array.from({ length: 1 + g.int(3) }, () => scalarOf(g, type === 'multi_select' ? 'select' : type));
    case 'eq':
    case 'ne':
      if (g.chance(0.15)) return null;
      return type === 'multi_select' ? g.some(TAGS) : scalarOf(g, type);
    case 'contains':
    case 'starts_with':
      return type === 'multi_select' ? g.pick(TAGS) : text(g);
    default:
      return scalarOf(g, type);
  }
}

/** One condition as the rows list grammar writes it; the grammar may refuse it (an operator a type has not). */
function condition(g: Generator, named: Set<string>): [string, unknown] {
  const slug = g.pick(SLUGS);
  const type = FIELD_TYPES[slug];
  const operator = type === 'attachment' ? 'is_empty' : g.pick(OPERATORS);
  const operand = operandOf(g, type, operator);
  named.add(slug);
  if (operator === 'eq' && !Array.isArray(operand) && g.chance(0.3)) return [slug, operand];
  // Two operators on one field now and then: `{"amount": {"gte": 1, "lt": 5}}` is an and.
  if (g.chance(0.15)) {
    const second = type === 'attachment' ? 'is_empty' : g.pick(OPERATORS);
    if (second !== operator) return [slug, { [operator]: operand, [second]: operandOf(g, type, second) }];
  }
  return [slug, { [operator]: operand }];
}

function group(g: Generator, depth: number, named: Set<string>): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  const entries = 1 + g.int(3);
  for (let i = 0; i < entries; i += 1) {
    if (depth < 3 && g.chance(0.3)) {
      const kind = g.chance(0.5) ? 'and' : 'or';
      if (!(kind in filter)) filter[kind] = Array.from({ length: 1 + g.int(3) }, () => group(g, depth + 1, named));
      continue;
    }
    const [slug, value] = condition(g, named);
    if (!(slug in filter)) filter[slug] = value;
  }
  return filter;
}

/** A filter the grammar accepts, and the types of the fields it names (as a webhook stores them). */
export function generatedFilter(g: Generator): { filter: Record<string, unknown>; fields: Record<string, FieldType> } {
  for (;;) {
    const named = new Set<string>();
    const filter = group(g, 1, named);
    const fields = Object.fromEntries([...named].map((slug) => [slug, FIELD_TYPES[slug]]));
    try {
      checkFilter(filter, Object.entries(fields).map(([slug, fieldType]) => ({ slug, fieldType })), { timestamps: false });
      return { filter, fields };
    } catch {
      // An operator the field's type has not, or an empty group: draw again.
    }
  }
}

/** A webhook's aim: a filter, watched fields, both or neither, now and then one whose table lost a field. */
export function generatedAim(g: Generator): AimSettings {
  const { filter, fields } = generatedFilter(g);
  const withFilter = g.chance(0.85);
  const watch = g.chance(0.2) ? g.some(SLUGS) : null;
  return {
    filter: withFilter ? filter : null,
    filter_fields: withFilter ? fields : null,
    watch_fields: watch,
    filter_error: g.chance(0.05) ? 'The filter names a field the table no longer has' : null,
  };
}

function valueOf(g: Generator, type: FieldType): unknown {
  if (g.chance(0.1)) return null;
  if (g.chance(0.1)) return g.pick(WRONG_TYPES);
  if (type === 'multi_select') return g.chance(0.2) ? [] : g.some(TAGS);
  if (type === 'attachment') return g.chance(0.5) ? [] : [{ id: 'file' }];
  return scalarOf(g, type, DATETIME_VALUES);
}

/** A row as an event carries it: most fields, some missing, some null, some of another type. */
export function generatedRow(g: Generator): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const slug of SLUGS) if (!g.chance(0.1)) row[slug] = valueOf(g, FIELD_TYPES[slug]);
  return row;
}

export const SLUG_LIST = SLUGS;
