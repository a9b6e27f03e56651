import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { MicroBatcher } from '../delivery/micro-batcher';
import { SealedWebhookRecord, WebhookRecord } from './webhook-record';

const COLUMNS = 'id, organization_id, name, url, events, active, failed_at, created_at, updated_at';

export interface NewWebhook {
  id: string;
  organizationId: string;
  name: string;
  url: string;
  events: string[];
  secretCiphertext: Buffer;
}

export interface WebhookChanges {
  name?: string;
  url?: string;
  events?: string[];
  active?: boolean;
}

/** The webhooks table. Every customer-facing query is scoped by organization. */
@Injectable()
export class WebhooksRepository {
  constructor(private readonly db: DataSource) {}

  async insert(webhook: NewWebhook): Promise<WebhookRecord> {
    const [row] = await this.db.query(
      `INSERT INTO webhooks.webhooks (id, organization_id, name, url, events, secret_ciphertext)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
      [webhook.id, webhook.organizationId, webhook.name, webhook.url, webhook.events, webhook.secretCiphertext],
    );
    return row;
  }

  async page(organizationId: string, limit: number, offset: number): Promise<{ rows: WebhookRecord[]; total: number }> {
    const [rows, [count]] = await Promise.all([
      this.db.query(
        `SELECT ${COLUMNS} FROM webhooks.webhooks WHERE organization_id = $1 ORDER BY created_at, id LIMIT $2 OFFSET $3`,
        [organizationId, limit, offset],
      ),
      this.db.query(`SELECT count(*)::int AS total FROM webhooks.webhooks WHERE organization_id = $1`, [organizationId]),
    ]);
    return { rows, total: count.total };
  }

  async findOwned(organizationId: string, id: string): Promise<SealedWebhookRecord | undefined> {
    const [row] = await this.db.query(`SELECT ${COLUMNS}, secret_ciphertext FROM webhooks.webhooks WHERE id = $1 AND organization_id = $2`, [
      id,
      organizationId,
    ]);
    return row;
  }

  /**
   * The webhooks delivery jobs name, read again at delivery time so a disabled or deleted one gets
   * nothing; one query for the attempts starting together.
   */
  private readonly forDelivery = new MicroBatcher<string, SealedWebhookRecord | undefined>(async (ids) => {
    const rows: SealedWebhookRecord[] = await this.db.query(`SELECT ${COLUMNS}, secret_ciphertext FROM webhooks.webhooks WHERE id = ANY($1::uuid[])`, [
      [...new Set(ids)],
    ]);
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.map((id) => byId.get(id));
  });

  findForDelivery(id: string): Promise<SealedWebhookRecord | undefined> {
    return this.forDelivery.add(id);
  }

  async update(organizationId: string, id: string, changes: WebhookChanges): Promise<WebhookRecord | undefined> {
    // TypeORM answers an UPDATE or DELETE as [rows, affected].
    const [[row]] = await this.db.query(
      `UPDATE webhooks.webhooks SET
         name = COALESCE($3, name),
         url = COALESCE($4, url),
         events = COALESCE($5, events),
         active = COALESCE($6, active),
         updated_at = now()
       WHERE id = $1 AND organization_id = $2
       RETURNING ${COLUMNS}`,
      [id, organizationId, changes.name ?? null, changes.url ?? null, changes.events ?? null, changes.active ?? null],
    );
    return row;
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    const [, affected] = await this.db.query(`DELETE FROM webhooks.webhooks WHERE id = $1 AND organization_id = $2`, [id, organizationId]);
    return affected > 0;
  }

  /** Active webhooks of these organizations with the kinds they subscribe to: what the fan-out matches events against. */
  async activeSubscriptions(organizationIds: string[]): Promise<Array<{ id: string; organization_id: string; events: string[] }>> {
    if (organizationIds.length === 0) return [];
    return this.db.query(`SELECT id, organization_id, events FROM webhooks.webhooks WHERE organization_id = ANY($1::uuid[]) AND active`, [
      organizationIds,
    ]);
  }

  async markFailed(id: string): Promise<void> {
    await this.db.query(`UPDATE webhooks.webhooks SET failed_at = now() WHERE id = $1`, [id]);
  }

  async markRecovered(id: string): Promise<void> {
    await this.db.query(`UPDATE webhooks.webhooks SET failed_at = NULL WHERE id = $1 AND failed_at IS NOT NULL`, [id]);
  }
}
