import type { DomainEvent, RowEventData } from '@contracts';
import { buildEvent } from '@platform/persistence';
import type { UserTable } from '../tables/user-table';

export function rowEvent(kind: 'row.created' | 'row.updated' | 'row.deleted', table: UserTable, rowId: string, rowData: Record<string, unknown>): DomainEvent<RowEventData> {
  return buildEvent<RowEventData>(table.organizationId, kind, { table_id: table.id, table_name: table.name, row_id: rowId, row_data: rowData });
}
