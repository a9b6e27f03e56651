import { DomainEvent, isUuid } from '@contracts';

/** `row.*` and `table.*` events are about one table (`data.table_id`); a webhook may be narrowed to some tables. */
export function isTableEventKind(kind: string): boolean {
  return /^(row|table)\./.test(kind);
}

/** The table a `row.*` or `table.*` event is about, lowercase as Postgres writes uuids; null for any other event, or one that names no valid table. */
export function tableIdOf(event: DomainEvent): string | null {
  if (!isTableEventKind(event.event)) return null;
  const tableId = (event.data as { table_id?: unknown } | null)?.table_id;
  return isUuid(tableId) ? tableId.toLowerCase() : null;
}
