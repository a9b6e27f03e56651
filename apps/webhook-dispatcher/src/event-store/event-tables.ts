import { DomainEvent, isUuid } from '@contracts';

/** The table a `row.*` or `table.*` event is about; null for any other event, or one that names no valid table. */
export function tableIdOf(event: DomainEvent): string | null {
  if (!/^(row|table)\./.test(event.event)) return null;
  const tableId = (event.data as { table_id?: unknown } | null)?.table_id;
  return isUuid(tableId) ? tableId : null;
}
