import type { DomainEvent, TableEventData } from '@contracts';
import { buildEvent } from '@platform/persistence';
import type { UserTable } from './user-table';

export function tableEvent(kind: 'table.created' | 'table.updated' | 'table.deleted', table: Pick<UserTable, 'id' | 'organizationId' | 'name' | 'slug'>): DomainEvent<TableEventData> {
  return buildEvent<TableEventData>(table.organizationId, kind, { table_id: table.id, table_name: table.name, table_slug: table.slug });
}
