import { Injectable } from '@nestjs/common';
import { Database, PreparedStatement, Sql } from '@platform/persistence';
import { MicroBatcher } from '../delivery/micro-batcher';
import { WEBHOOK_PURGES_TABLE, WEBHOOKS_TABLE } from '../webhooks-schema';
import type { Subscription } from '../dispatch/webhook-subscription';
import type { AimedWebhook } from '../dispatch/webhook-aims';
import type { CheckedAim } from './webhook-aim-check';
import { SealedWebhookRecord, WebhookRecord } from './webhook-record';

const COLUMNS = 'id, organization_id, name, url, events, table_ids, filter, filter_fields, watch_fields, filter_error, rate_limit, active, failed_at, created_at, updated_at';
const SEALED_COLUMNS = `${COLUMNS}, secret_ciphertext, previous_secret_ciphertext, previous_secret_expires_at`;

/** The fan-out asks it whenever an organization's webhooks are not held (ActiveSubscriptions): prepared once per connection. */
const ACTIVE_SUBSCRIPTIONS: PreparedStatement = {
  name: 'webhooks_active_subscriptions',
  text: `SELECT id, organization_id, events, table_ids,
      CASE WHEN filter IS NULL AND watch_fields IS NULL THEN NULL
           ELSE json_build_object('filter', filter, 'filter_fields', filter_fields, 'watch_fields', watch_fields, 'filter_error', filter_error)::text END AS aim
    FROM ${WEBHOOKS_TABLE} WHERE organization_id = ANY($1::uuid[]) AND active`,
};

export interface NewWebhook {
  id: string;
  organizationId: string;
  name: string;
  url: string;
  events: string[];
  tableIds: string[] | null;
  aim: CheckedAim;
  rateLimit: number | null;
  secretCiphertext: Buffer;
}

/** A webhook aimed at one table, as a check of that table reads it. */
export type AimedAt = Pick<WebhookRecord, 'id' | 'filter_fields' | 'watch_fields'>;

/** A webhook whose status just changed. */
export type StatusChange = Pick<WebhookRecord, 'id' | 'organization_id' | 'name' | 'url'>;

export interface WebhookChanges {
  name?: string;
  url?: string;
  events?: string[];
  /** Absent: unchanged; null: every table again. */
  tableIds?: string[] | null;
  /** Absent: unchanged; given: checked again, and its error cleared. */
  aim?: CheckedAim;
  /** Absent: unchanged; null: no limit. */
  rateLimit?: number | null;
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
        `INSERT INTO ${WEBHOOKS_TABLE} (id, organization_id, name, url, events, table_ids, secret_ciphertext, filter, filter_fields, watch_fields, rate_limit)
         SELECT $1, $2, $3, $4, $5, $6, $7, $9, $10, $11, $12 WHERE (SELECT count(*) FROM ${WEBHOOKS_TABLE} WHERE organization_id = $2) < $8
         RETURNING ${COLUMNS}`,
        [
          webhook.id,
          webhook.organizationId,
          webhook.name,
          webhook.url,
          webhook.events,
          webhook.tableIds,
          webhook.secretCiphertext,
          limit,
          webhook.aim.filter,
          webhook.aim.filterFields,
          webhook.aim.watchFields,
          webhook.rateLimit,
        ],
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
         filter = CASE WHEN $9 THEN $10::jsonb ELSE filter END,
         filter_fields = CASE WHEN $9 THEN $11::jsonb ELSE filter_fields END,
         watch_fields = CASE WHEN $9 THEN $12::text[] ELSE watch_fields END,
         filter_error = CASE WHEN $9 THEN NULL ELSE filter_error END,
         rate_limit = CASE WHEN $13 THEN $14::integer ELSE rate_limit END,
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
        changes.aim !== undefined,
        changes.aim?.filter ?? null,
        changes.aim?.filterFields ?? null,
        changes.aim?.watchFields ?? null,
        changes.rateLimit !== undefined,
        changes.rateLimit ?? null,
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
  async activeSubscriptions(organizationIds: string[]): Promise<Array<Subscription & AimedWebhook & { organization_id: string }>> {
    if (organizationIds.length === 0) return [];
    const { rows } = await this.db.query<Subscription & AimedWebhook & { organization_id: string }>(ACTIVE_SUBSCRIPTIONS, [organizationIds]);
    return rows;
  }

  /** The webhooks whose filter or watched fields name fields of this table, and that still fit it as far as is known. */
  async aimedAt(organizationId: string, tableId: string): Promise<AimedAt[]> {
    const { rows } = await this.db.query<AimedAt>(
      `SELECT id, filter_fields, watch_fields FROM ${WEBHOOKS_TABLE}
       WHERE organization_id = $1 AND table_ids = ARRAY[$2::uuid] AND (filter IS NOT NULL OR watch_fields IS NOT NULL) AND filter_error IS NULL`,
      [organizationId, tableId],
    );
    return rows;
  }

  /** Marks a webhook's aim as broken, unless an update changed it since it was read (that update checked it again); answers whether it did. */
  async setFilterError(webhook: AimedAt, error: string): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE ${WEBHOOKS_TABLE} SET filter_error = $4
       WHERE id = $1 AND filter_fields IS NOT DISTINCT FROM $2::jsonb AND watch_fields IS NOT DISTINCT FROM $3::text[] AND filter_error IS NULL`,
      [webhook.id, webhook.filter_fields, webhook.watch_fields, error],
    );
    return Boolean(rowCount);
  }

  /**
   * Moves a webhook to `failed` or back to `active` when it is not there yet, and answers what the
   * operational event about it says; undefined when its status did not change (or it is gone).
   */
  async changeStatus(sql: Sql, id: string, to: 'failed' | 'active'): Promise<StatusChange | undefined> {
    const change = to === 'failed' ? 'failed_at = now() WHERE id = $1 AND failed_at IS NULL' : 'failed_at = NULL WHERE id = $1 AND failed_at IS NOT NULL';
    const {
      rows: [row],
    } = await sql.query<StatusChange>(`UPDATE ${WEBHOOKS_TABLE} SET ${change} RETURNING id, organization_id, name, url`, [id]);
    return row;
  }

  /** The organization's active webhooks subscribed to this kind, but the one it is about. */
  async subscribersOf(sql: Sql, organizationId: string, kind: string, exceptId: string): Promise<string[]> {
    const { rows } = await sql.query<{ id: string }>(
      `SELECT id FROM ${WEBHOOKS_TABLE} WHERE organization_id = $1 AND active AND $2 = ANY(events) AND id <> $3`,
      [organizationId, kind, exceptId],
    );
    return rows.map((row) => row.id);
  }
}
