import { Injectable } from '@nestjs/common';
import { Database } from '@platform/persistence';
import { MicroBatcher } from '../delivery/micro-batcher';
import { WEBHOOK_PURGES_TABLE, WEBHOOKS_TABLE } from '../webhooks-schema';
import type { Subscription } from '../dispatch/webhook-subscription';
import { SealedWebhookRecord, WebhookRecord } from './webhook-record';

const COLUMNS = 'id, organization_id, name, url, events, table_ids, active, failed_at, created_at, updated_at';
const SEALED_COLUMNS = `${COLUMNS}, secret_ciphertext, previous_secret_ciphertext, previous_secret_expires_at`;

export interface NewWebhook {
  id: string;
  organizationId: string;
  name: string;
  url: string;
  events: string[];
  tableIds: string[] | null;
  secretCiphertext: Buffer;
}

export interface WebhookChanges {
  name?: string;
  url?: string;
  events?: string[];
  /** Absent: unchanged; null: every table again. */
  tableIds?: string[] | null;
  active?: boolean;
}

/** The webhooks table. Every customer-facing query is scoped by organization. */
@Injectable()
export class WebhooksRepository {
  constructor(private readonly db: Database) {}

  /**
   * Inserts the webhook unless its organization already has `limit`; undefined then. Creates of one
   * organization take turns on a transaction lock, so concurrent ones cannot both pass the count.
   */
  async insertWithin(limit: number, webhook: NewWebhook): Promise<WebhookRecord | undefined> {
    return this.db.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended('webhooks:' || $1::text, 0))`, [webhook.organizationId]);
      const {
        rows: [row],
      } = await tx.query<WebhookRecord>(
        `INSERT INTO ${WEBHOOKS_TABLE} (id, organization_id, name, url, events, table_ids, secret_ciphertext)
         SELECT $1, $2, $3, $4, $5, $6, $7 WHERE (SELECT count(*) FROM ${WEBHOOKS_TABLE} WHERE organization_id = $2) < $8
         RETURNING ${COLUMNS}`,
        [webhook.id, webhook.organizationId, webhook.name, webhook.url, webhook.events, webhook.tableIds, webhook.secretCiphertext, limit],
      );
      return row;
    });
  }

  async page(organizationId: string, limit: number, offset: number): Promise<{ rows: WebhookRecord[]; total: number }> {
    const [{ rows }, { rows: [count] }] = await Promise.all([
      this.db.query<WebhookRecord>(
        `SELECT ${COLUMNS} FROM ${WEBHOOKS_TABLE} WHERE organization_id = $1 ORDER BY created_at, id LIMIT $2 OFFSET $3`,
        [organizationId, limit, offset],
      ),
      this.db.query<{ total: number }>(`SELECT count(*)::int AS total FROM ${WEBHOOKS_TABLE} WHERE organization_id = $1`, [organizationId]),
    ]);
    return { rows, total: count.total };
  }

  async findOwned(organizationId: string, id: string): Promise<SealedWebhookRecord | undefined> {
    const {
      rows: [row],
    } = await this.db.query<SealedWebhookRecord>(`SELECT ${SEALED_COLUMNS} FROM ${WEBHOOKS_TABLE} WHERE id = $1 AND organization_id = $2`, [
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
    const { rows } = await this.db.query<SealedWebhookRecord>(`SELECT ${SEALED_COLUMNS} FROM ${WEBHOOKS_TABLE} WHERE id = ANY($1::uuid[])`, [
      [...new Set(ids)],
    ]);
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.map((id) => byId.get(id));
  });

  findForDelivery(id: string): Promise<SealedWebhookRecord | undefined> {
    return this.forDelivery.add(id);
  }

  async update(organizationId: string, id: string, changes: WebhookChanges): Promise<WebhookRecord | undefined> {
    const {
      rows: [row],
    } = await this.db.query<WebhookRecord>(
      `UPDATE ${WEBHOOKS_TABLE} SET
         name = COALESCE($3, name),
         url = COALESCE($4, url),
         events = COALESCE($5, events),
         active = COALESCE($6, active),
         table_ids = CASE WHEN $7 THEN $8::uuid[] ELSE table_ids END,
         updated_at = now()
       WHERE id = $1 AND organization_id = $2
       RETURNING ${COLUMNS}`,
      [
        id,
        organizationId,
        changes.name ?? null,
        changes.url ?? null,
        changes.events ?? null,
        changes.active ?? null,
        changes.tableIds !== undefined,
        changes.tableIds ?? null,
      ],
    );
    return row;
  }

  /**
   * Seals in a new secret and keeps the current one as the previous until `previousExpiresAt`, in one
   * statement: two rotations at once leave the later one's secret current and the earlier one's previous.
   */
  async rotateSecret(organizationId: string, id: string, secretCiphertext: Buffer, previousExpiresAt: Date): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE ${WEBHOOKS_TABLE} SET
         previous_secret_ciphertext = secret_ciphertext,
         previous_secret_expires_at = $4,
         secret_ciphertext = $3,
         updated_at = now()
       WHERE id = $1 AND organization_id = $2`,
      [id, organizationId, secretCiphertext, previousExpiresAt],
    );
    return Boolean(rowCount);
  }

  /**
   * Deletes the webhook's one row and leaves its series and delivery records to `WebhookPurger`, whatever
   * their number; answers false when the organization has no such webhook.
   */
  async delete(organizationId: string, id: string): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `WITH gone AS (DELETE FROM ${WEBHOOKS_TABLE} WHERE id = $1 AND organization_id = $2 RETURNING id)
       INSERT INTO ${WEBHOOK_PURGES_TABLE} (webhook_id) SELECT id FROM gone`,
      [id, organizationId],
    );
    return rowCount === 1;
  }

  /** Active webhooks of these organizations with what they subscribe to: what the fan-out matches events against. */
  async activeSubscriptions(organizationIds: string[]): Promise<Array<Subscription & { id: string; organization_id: string }>> {
    if (organizationIds.length === 0) return [];
    const { rows } = await this.db.query<Subscription & { id: string; organization_id: string }>(
      `SELECT id, organization_id, events, table_ids FROM ${WEBHOOKS_TABLE} WHERE organization_id = ANY($1::uuid[]) AND active`,
      [organizationIds],
    );
    return rows;
  }

  async markFailed(id: string): Promise<void> {
    await this.db.query(`UPDATE ${WEBHOOKS_TABLE} SET failed_at = now() WHERE id = $1`, [id]);
  }

  async markRecovered(id: string): Promise<void> {
    await this.db.query(`UPDATE ${WEBHOOKS_TABLE} SET failed_at = NULL WHERE id = $1 AND failed_at IS NOT NULL`, [id]);
  }
}
