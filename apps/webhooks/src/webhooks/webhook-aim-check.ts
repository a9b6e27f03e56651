import type { FieldType } from '@contracts';
import { AppError } from '@platform/errors';
import { checkFilter, FilterField, FilterNode } from '@platform/row-filter';

/** A webhook's aim as stored: checked against its table, with the types of the fields the filter names. */
export interface CheckedAim {
  filter: Record<string, unknown> | null;
  filterFields: Record<string, FieldType> | null;
  watchFields: string[] | null;
}

export interface AimRequest {
  filter: Record<string, unknown> | null;
  watch_fields: string[] | null;
}

export const NO_AIM: CheckedAim = { filter: null, filterFields: null, watchFields: null };

export function hasAim(aim: AimRequest): boolean {
  return aim.filter !== null || aim.watch_fields !== null;
}

/** The one table a filter or watched fields are checked against; refused naming the setting otherwise. */
export function aimedTable(aim: AimRequest, tableIds: readonly string[] | null): string {
  if (tableIds?.length === 1) return tableIds[0];
  throw AppError.validation(aim.filter !== null ? 'filter' : 'watch_fields', 'needs table_ids to hold exactly one table, whose fields it names');
}

function namedFields(node: FilterNode, into: Map<string, FieldType>): Map<string, FieldType> {
  if (node.kind !== 'condition') node.items.forEach((item) => namedFields(item, into));
  else if (node.target.kind === 'field') into.set(node.target.field.slug, node.target.field.fieldType);
  return into;
}

/** Checks a filter and watched fields against the table's fields: VALIDATION_ERROR naming `filter...` or `watch_fields[i]`. */
export function checkAim(aim: AimRequest, fields: readonly FilterField[]): CheckedAim {
  const tree = aim.filter === null ? undefined : checkFilter(aim.filter, fields, { timestamps: false });
  const slugs = new Set(fields.map((field) => field.slug));
  aim.watch_fields?.forEach((slug, i) => {
    if (!slugs.has(slug)) throw AppError.validation(`watch_fields[${i}]`, 'is not a field of this table');
  });
  return {
    filter: aim.filter,
    filterFields: aim.filter === null ? null : Object.fromEntries(tree ? namedFields(tree, new Map()) : []),
    watchFields: aim.watch_fields,
  };
}

/**
 * Why a stored aim no longer fits its table, as the webhook's view says it; null when it still does. A
 * field that is gone, or that came back under its slug with another type, breaks it alike.
 */
export function aimError(aim: { filter_fields: Record<string, FieldType> | null; watch_fields: string[] | null }, fields: readonly FilterField[]): string | null {
  const types = new Map(fields.map((field) => [field.slug, field.fieldType]));
  for (const [slug, type] of Object.entries(aim.filter_fields ?? {})) {
    if (types.get(slug) !== type) return `The filter names the field "${slug}", which the table no longer has; update the webhook`;
  }
  for (const slug of aim.watch_fields ?? []) {
    if (!types.has(slug)) return `watch_fields names the field "${slug}", which the table no longer has; update the webhook`;
  }
  return null;
}
