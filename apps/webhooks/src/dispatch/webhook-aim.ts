import type { FieldType } from '@contracts';
import { checkFilter } from '@platform/row-filter';
import { compileRowMatcher, EventRow, fieldSlot, RowMatcher } from './row-filter-match';
import { filterNeeds, Need } from './row-filter-needs';

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

/** What of an event the aims read, made once per event however many webhooks test it. */
export interface AimedEvent {
  eventType: string;
  /** Aims concern `row.*` events only. */
  isRowEvent: boolean;
  /** The row a filter tests (`row_data`: after the change, or as it was for `row.deleted`); undefined when malformed. */
  row: EventRow | undefined;
  changedFields: readonly unknown[];
}

/** Aims concern `row.*` events only. */
export function isRowEventKind(eventType: string): boolean {
  return eventType.startsWith('row.');
}

export function aimedEvent(eventType: string, data: unknown): AimedEvent {
  const row = isRecord(data) && isRecord(data.row_data) ? new EventRow(data.row_data) : undefined;
  const changedFields = isRecord(data) && Array.isArray(data.changed_fields) ? (data.changed_fields as unknown[]) : [];
  return { eventType, isRowEvent: isRowEventKind(eventType), row, changedFields };
}

/** A webhook's aim ready to test row events with: its filter, watched fields and named fields in one function. */
export interface WebhookAim {
  allows: (event: AimedEvent) => boolean;
  /**
   * What a row event's row must meet for `allows` to let it through (one of these; see `filterNeeds`):
   * an index of them spares testing the aims a row cannot meet. Undefined when not known: test it.
   */
  needs?: readonly Need[];
}

/** An aim that lets no row event through. */
const NOTHING: WebhookAim = { allows: () => false, needs: [] };

export function compileAim(settings: AimSettings): WebhookAim | undefined {
  if (settings.filter === null && settings.watch_fields === null) return undefined;
  const fields = Object.entries(settings.filter_fields ?? {}).map(([slug, fieldType]) => ({ slug, fieldType }));
  let filter: RowMatcher | undefined;
  let needs: Need[] | undefined;
  try {
    const tree = settings.filter === null ? undefined : checkFilter(settings.filter, fields, { timestamps: false });
    filter = tree === undefined ? undefined : compileRowMatcher(tree);
    needs = tree === undefined ? undefined : filterNeeds(tree);
  } catch {
    // Checked when it was saved; a stored filter that no longer parses can only match nothing.
    return NOTHING;
  }
  // The table lost a named field: no row event matches until the webhook is updated.
  if (settings.filter_error !== null) return NOTHING;
  // Every slug the filter or the watched fields name: a row without one of them is of a table that lost it.
  const namedFields = [...new Set([...fields.map((field) => field.slug), ...(settings.watch_fields ?? [])])].map(fieldSlot);
  const watchFields = settings.watch_fields;
  return {
    needs,
    allows: (event) => {
      const row = event.row;
      if (row === undefined) return false;
      for (const slot of namedFields) if (!row.has(slot)) return false;
      if (watchFields !== null && event.eventType === 'row.updated' && !watchFields.some((slug) => event.changedFields.includes(slug))) return false;
      return filter === undefined || filter(row);
    },
  };
}

/**
 * Whether a webhook's aim lets this event through: the fan-out asks it for every (event, webhook) pair
 * before anything is stored or queued. Only `row.*` events are aimed at; `row.created`/`row.updated`
 * test the row after the change, `row.deleted` the row as it was (both are `row_data`).
 */
export function aimAllows(aim: WebhookAim | undefined, event: AimedEvent): boolean {
  return aim === undefined || !event.isRowEvent || aim.allows(event);
}
