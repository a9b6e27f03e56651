import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

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

  /** Answers false when the webhook was deleted meanwhile (its deliveries went with it). */
  async record(delivery: DeliveryRecord): Promise<boolean> {
    try {
      await this.db.query(
        `INSERT INTO webhooks.deliveries
           (id, webhook_id, organization_id, event_id, event_type, attempt, status_code, duration_ms, success, error_message, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [
          delivery.id,
          delivery.webhookId,
          delivery.organizationId,
          delivery.eventId,
          delivery.eventType,
          delivery.attempt,
          delivery.statusCode,
          delivery.durationMs,
          delivery.success,
          delivery.errorMessage ?? null,
          delivery.createdAt,
        ],
      );
      return true;
    } catch (error) {
      if ((error as { code?: string }).code === FOREIGN_KEY_VIOLATION) return false;
      throw error;
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
