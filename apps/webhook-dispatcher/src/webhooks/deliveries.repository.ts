import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { MicroBatcher } from '../delivery/micro-batcher';

export interface DeliveryRecord {
  id: string;
  webhookId: string;
  organizationId: string;
  eventId: string;
  eventType: string;
  attempt: number;
  statusCode: number;
  durationMs: number;
  success: boolean;
  errorMessage?: string;
  createdAt: Date;
}

export interface DeliveryRow {
  id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  status_code: number;
  duration_ms: number;
  success: boolean;
  error_message: string | null;
  created_at: Date;
}

const FOREIGN_KEY_VIOLATION = '23503';

/** One row per attempt. */
@Injectable()
export class DeliveriesRepository {
  constructor(private readonly db: DataSource) {}

  /**
   * Records attempts that finish together in one statement. Answers false for an attempt whose webhook
   * was deleted meanwhile (its deliveries went with it).
   */
  private readonly recorder = new MicroBatcher<DeliveryRecord, boolean>(async (deliveries) => {
    const rows: Array<{ id: string }> = await this.db.query(
      `INSERT INTO webhooks.deliveries
         (id, webhook_id, organization_id, event_id, event_type, attempt, status_code, duration_ms, success, error_message, created_at)
       SELECT d.* FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::text[], $6::smallint[], $7::smallint[],
                              $8::int[], $9::boolean[], $10::text[], $11::timestamptz[])
         AS d(id, webhook_id, organization_id, event_id, event_type, attempt, status_code, duration_ms, success, error_message, created_at)
       WHERE EXISTS (SELECT 1 FROM webhooks.webhooks w WHERE w.id = d.webhook_id)
       RETURNING id`,
      [
        deliveries.map((d) => d.id),
        deliveries.map((d) => d.webhookId),
        deliveries.map((d) => d.organizationId),
        deliveries.map((d) => d.eventId),
        deliveries.map((d) => d.eventType),
        deliveries.map((d) => d.attempt),
        deliveries.map((d) => d.statusCode),
        deliveries.map((d) => d.durationMs),
        deliveries.map((d) => d.success),
        deliveries.map((d) => d.errorMessage ?? null),
        deliveries.map((d) => d.createdAt),
      ],
    );
    const inserted = new Set(rows.map((row) => row.id));
    return deliveries.map((d) => inserted.has(d.id));
  });

  async record(delivery: DeliveryRecord): Promise<boolean> {
    try {
      return await this.recorder.add(delivery);
    } catch (error) {
      // A webhook deleted between the check and the insert: record this attempt alone, or learn it is gone.
      if ((error as { code?: string }).code !== FOREIGN_KEY_VIOLATION) throw error;
      return this.recorder.add(delivery);
    }
  }

  async page(organizationId: string, webhookId: string, limit: number, offset: number): Promise<{ rows: DeliveryRow[]; total: number }> {
    const [rows, [count]] = await Promise.all([
      this.db.query(
        `SELECT id, event_id, event_type, attempt, status_code, duration_ms, success, error_message, created_at
         FROM webhooks.deliveries WHERE webhook_id = $1 AND organization_id = $2
         ORDER BY created_at DESC, attempt DESC, id DESC LIMIT $3 OFFSET $4`,
        [webhookId, organizationId, limit, offset],
      ),
      this.db.query(`SELECT count(*)::int AS total FROM webhooks.deliveries WHERE webhook_id = $1 AND organization_id = $2`, [
        webhookId,
        organizationId,
      ]),
    ]);
    return { rows, total: count.total };
  }
}
