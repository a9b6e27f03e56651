import type { FieldType } from '@contracts';
import { checkFilter, FilterNode } from '@platform/row-filter';
import { rowMatches } from './row-filter-match';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What of a webhook aims it at some rows: as stored with it. */
export interface AimSettings {
  filter: Record<string, unknown> | null;
  /** The type of each field the filter names, as the table had it when the filter was checked. */
  filter_fields: Record<string, FieldType> | null;
  watch_fields: string[] | null;
  filter_error: string | null;
}

/** A webhook's aim ready to test events with; undefined when it has none (every row event passes). */
export interface WebhookAim {
  filter: FilterNode | undefined;
  watchFields: readonly string[] | null;
  /** Every slug the filter or the watched fields name: a row without one of them is of a table that lost it. */
  namedFields: readonly string[];
  /** The table lost a named field: no row event matches until the webhook is updated. */
  broken: boolean;
}

export function compileAim(settings: AimSettings): WebhookAim | undefined {
  if (settings.filter === null && settings.watch_fields === null) return undefined;
  const fields = Object.entries(settings.filter_fields ?? {}).map(([slug, fieldType]) => ({ slug, fieldType }));
  let filter: FilterNode | undefined;
  let broken = settings.filter_error !== null;
  try {
    filter = settings.filter === null ? undefined : checkFilter(settings.filter, fields, { timestamps: false });
  } catch {
    // Checked when it was saved; a stored filter that no longer parses can only match nothing.
    broken = true;
  }
  const namedFields = [...new Set([...fields.map((field) => field.slug), ...(settings.watch_fields ?? [])])];
  return { filter, watchFields: settings.watch_fields, namedFields, broken };
}

/**
 * Whether a webhook's aim lets this event through: the fan-out asks it for every (event, webhook) pair
 * before anything is stored or queued. Only `row.*` events are aimed at; `row.created`/`row.updated`
 * test the row after the change, `row.deleted` the row as it was (both are `row_data`).
 */
export function aimAllows(aim: WebhookAim | undefined, eventType: string, data: unknown): boolean {
  if (aim === undefined || !eventType.startsWith('row.')) return true;
  if (aim.broken || !isRecord(data)) return false;
  const row = data.row_data;
  if (!isRecord(row)) return false;
  for (const slug of aim.namedFields) if (!Object.hasOwn(row, slug)) return false;
  if (aim.watchFields !== null && eventType === 'row.updated') {
    const changed = Array.isArray(data.changed_fields) ? (data.changed_fields as unknown[]) : [];
    if (!aim.watchFields.some((slug) => changed.includes(slug))) return false;
  }
  return aim.filter === undefined || rowMatches(aim.filter, row);
}
