import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { UserTable } from './user-table';
import { UserTableRepository } from './user-table.repository';

/**
 * Table metadata kept in memory for the row-create path. A cached copy may be stale (another replica
 * changed the table); writers check its `version` inside their statement and reload when it moved.
 */
@Injectable()
export class UserTableCache {
  private readonly entries = new LRUCache<string, UserTable>({ max: 2_000, ttl: 60_000 });

  constructor(private readonly tables: UserTableRepository) {}

  async get(organizationId: string, tableId: string): Promise<UserTable | undefined> {
    const cached = this.entries.get(tableId);
    if (cached && cached.organizationId === organizationId) return cached;
    return this.reload(organizationId, tableId);
  }

  async reload(organizationId: string, tableId: string): Promise<UserTable | undefined> {
    const table = await this.tables.find(organizationId, tableId);
    if (table) this.entries.set(tableId, table);
    else if (this.entries.get(tableId)?.organizationId === organizationId) this.entries.delete(tableId);
    return table;
  }

  forget(tableId: string): void {
    this.entries.delete(tableId);
  }
}
