import type { DomainEvent, RowEventData, RowUpdatedEventData } from '@contracts';
import { buildEvent } from '@platform/persistence';
import type { UserTable } from '../tables/user-table';

export function rowEvent(kind: 'row.created' | 'row.deleted', table: UserTable, rowId: string, rowData: Record<string, unknown>): DomainEvent<RowEventData> {
  return buildEvent<RowEventData>(table.organizationId, kind, { table_id: table.id, table_name: table.name, row_id: rowId, row_data: rowData });
}

export function rowUpdatedEvent(
  table: UserTable,
  rowId: string,
  rowData: Record<string, unknown>,
  previousRowData: Record<string, unknown>,
  changedFields: string[],
): DomainEvent<RowUpdatedEventData> {
  return buildEvent<RowUpdatedEventData>(table.organizationId, 'row.updated', {
    table_id: table.id,
    table_name: table.name,
    row_id: rowId,
    row_data: rowData,
    previous_row_data: previousRowData,
    changed_fields: changedFields,
  });
}
