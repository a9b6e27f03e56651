import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { aimError } from './webhook-aim-check';
import { OrganizationTables } from './organization-tables';
import { SubscriptionChanges } from './subscription-changes';
import { WebhooksRepository } from './webhooks.repository';

/** A table that changed, as its `table.updated` event names it. */
export interface ChangedTable {
  organizationId: string;
  tableId: string;
}

/**
 * After a table changes, checks the webhooks aimed at it against its fields as they are now, and gives
 * `filter_error` to those that name a field it lost. Until then (or should this check be lost with its
 * process) the fan-out already matches no row that lacks a named field.
 */
@Injectable()
export class AimRechecks {
  private readonly logger = new Logger('AimRechecks');

  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly tables: OrganizationTables,
    private readonly changes: SubscriptionChanges,
  ) {}

  /** Runs in the background: the fan-out never waits for the tables context. */
  afterTableChanges(changed: ChangedTable[]): void {
    const distinct = new Map(changed.map((table) => [`${table.organizationId}/${table.tableId}`, table]));
    for (const table of distinct.values()) {
      this.recheck(table).catch((error: unknown) => this.logger.warn({ err: error, tableId: table.tableId }, 'could not check the webhooks aimed at a changed table'));
    }
  }

  async recheck({ organizationId, tableId }: ChangedTable): Promise<void> {
    const aimed = await this.webhooks.aimedAt(organizationId, tableId);
    if (aimed.length === 0) return;
    const asker = { org: { id: organizationId, plan: 0, addons: [] }, requestId: randomUUID(), callId: randomUUID() };
    const fields = await this.tables.fieldsOf(asker, tableId);
    let changed = false;
    for (const webhook of aimed) {
      const error = aimError(webhook, fields);
      if (error !== null) changed = (await this.webhooks.setFilterError(webhook, error)) || changed;
    }
    if (changed) await this.changes.announce(organizationId);
  }
}
