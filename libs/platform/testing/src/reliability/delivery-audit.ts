import type { ApiClient } from '../api-client';
import { readOrgEvents } from '../event-reader';

/** Every row of a table, read back page by page through the API. */
export async function committedRowIds(api: ApiClient, tableId: string): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const res = await api.get(`/tables/${tableId}/rows?limit=100&page=${page}`);
    if (res.status !== 200) throw new Error(`listing rows failed: ${res.status} ${JSON.stringify(res.body)}`);
    ids.push(...(res.body.data as { id: string }[]).map((row) => row.id));
    if (page * 100 >= res.body.pagination.total) return ids;
  }
}

export interface EventAudit {
  /** row.created events per row id. */
  eventsPerRow: Map<string, number>;
  /** row id -> the event id that announced it. */
  eventIdOfRow: Map<string, string>;
  rowsWithoutEvent: string[];
  rowsWithSeveralEvents: string[];
  eventsForUnknownRows: string[];
  totalEvents: number;
}

/** Reads the organization's events from JetStream and checks them against the committed rows. */
export async function auditRowEvents(natsUrl: string, orgId: string, rowIds: string[], otherEvents: number): Promise<EventAudit> {
  const events = await readOrgEvents(orgId, { count: rowIds.length + otherEvents, timeoutMs: 30_000, natsUrl });
  const eventsPerRow = new Map<string, number>();
  const eventIdOfRow = new Map<string, string>();
  for (const { event } of events) {
    if (event.event !== 'row.created') continue;
    const rowId = event.data.row_id as string;
    eventsPerRow.set(rowId, (eventsPerRow.get(rowId) ?? 0) + 1);
    eventIdOfRow.set(rowId, event.id);
  }
  const committed = new Set(rowIds);
  return {
    eventsPerRow,
    eventIdOfRow,
    rowsWithoutEvent: rowIds.filter((id) => !eventsPerRow.has(id)),
    rowsWithSeveralEvents: [...eventsPerRow].filter(([, n]) => n > 1).map(([id]) => id),
    eventsForUnknownRows: [...eventsPerRow.keys()].filter((id) => !committed.has(id)),
    totalEvents: events.length,
  };
}
