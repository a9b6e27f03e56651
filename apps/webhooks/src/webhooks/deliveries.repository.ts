import { Injectable } from '@nestjs/common';
import { Database, isPgError, PgErrorCode } from '@platform/persistence';
import { MicroBatcher } from '../delivery/micro-batcher';
import { DELIVERIES_TABLE, DELIVERY_SERIES_TABLE, WEBHOOKS_TABLE } from '../webhooks-schema';

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
  /** The start of the receiver's answer; absent when none arrived. */
  responseBody?: string;
  createdAt: Date;
  /** The series this attempt belongs to; none for a test send. */
  seriesId?: string;
  /** When the next attempt of the series is due; none when this one ended it. */
  nextRetryAt?: Date;
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
  response_body: string | null;
  next_retry_at: Date | null;
  created_at: Date;
}

export interface DeliveryFilter {
  success?: boolean;
  eventType?: string;
}

/**
 * How long the first attempt to end waits for others to be recorded with it: a steady stream of single
 * events then costs Postgres a statement per few attempts instead of one each.
 */
const RECORD_GATHER_MS = 5;
/**
 * The least time from one record's start to the next: under load the attempts that end meanwhile share a
 * statement. A statement costs Postgres about 0.5 ms whatever its size, and each attempt in it about 0.02
 * more, so a worker that ends thousands of attempts a second spends a tenth as much on them as with
 * statements of a few each; only the job's end waits (the receiver has the delivery, the slot is free).
 */
const RECORD_GAP_MS = 20;

/** One row per attempt. */
@Injectable()
export class DeliveriesRepository {
  constructor(private readonly db: Database) {}

  /**
   * Records attempts that finish within RECORD_GATHER_MS of each other in one statement (the receiver has
   * them already; only the job's end waits). Answers false for an attempt whose webhook was deleted
   * meanwhile (its deliveries went with it).
   */
  private readonly recorder = new MicroBatcher<DeliveryRecord, boolean>(async (deliveries) => {
    // The attempt and its series' progress in one statement: the series owes nothing more once an attempt
    // schedules no retry, and is otherwise due again when the retry is.
    const { rows } = await this.db.query<{ id: string }>(
      `WITH d AS (
         SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::text[], $6::smallint[], $7::smallint[],
                              $8::int[], $9::boolean[], $10::text[], $11::timestamptz[], $12::uuid[], $13::timestamptz[],
                              $14::text[])
           AS d(id, webhook_id, organization_id, event_id, event_type, attempt, status_code, duration_ms, success, error_message, created_at,
                series_id, next_retry_at, response_body)
       ), recorded AS (
         INSERT INTO ${DELIVERIES_TABLE}
           (id, webhook_id, organization_id, event_id, event_type, attempt, status_code, duration_ms, success, error_message, created_at,
            series_id, next_retry_at, response_body)
         SELECT d.id, d.webhook_id, d.organization_id, d.event_id, d.event_type, d.attempt, d.status_code, d.duration_ms, d.success,
                d.error_message, d.created_at, d.series_id, d.next_retry_at, d.response_body
         FROM d WHERE EXISTS (SELECT 1 FROM ${WEBHOOKS_TABLE} w WHERE w.id = d.webhook_id)
         RETURNING id, series_id, attempt, next_retry_at
       ), progressed AS (
         UPDATE ${DELIVERY_SERIES_TABLE} s
         SET attempts = r.attempt, due_at = COALESCE(r.next_retry_at, s.due_at), finished_at = CASE WHEN r.next_retry_at IS NULL THEN now() END
         FROM recorded r WHERE s.id = r.series_id
       )
       SELECT id FROM recorded`,
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
        deliveries.map((d) => d.seriesId ?? null),
        deliveries.map((d) => d.nextRetryAt ?? null),
        deliveries.map((d) => d.responseBody ?? null),
      ],
    );
    const inserted = new Set(rows.map((row) => row.id));
    return deliveries.map((d) => inserted.has(d.id));
  }, { gatherMs: RECORD_GATHER_MS, minGapMs: RECORD_GAP_MS });

  async record(delivery: DeliveryRecord): Promise<boolean> {
    try {
      return await this.recorder.add(delivery);
    } catch (error) {
      // A webhook deleted between the check and the insert: record this attempt alone, or learn it is gone.
      if (!isPgError(error, PgErrorCode.ForeignKeyViolation)) throw error;
      return this.recorder.add(delivery);
    }
  }

  async page(
    organizationId: string,
    webhookId: string,
    filter: DeliveryFilter,
    limit: number,
    offset: number,
  ): Promise<{ rows: DeliveryRow[]; total: number }> {
    const where = `webhook_id = $1 AND organization_id = $2 AND ($3::boolean IS NULL OR success = $3) AND ($4::text IS NULL OR event_type = $4)`;
    const params = [webhookId, organizationId, filter.success ?? null, filter.eventType ?? null];
    const [{ rows }, { rows: [count] }] = await Promise.all([
      this.db.query<DeliveryRow>(
        `SELECT id, event_id, event_type, attempt, status_code, duration_ms, success, error_message, response_body, next_retry_at, created_at
         FROM ${DELIVERIES_TABLE} WHERE ${where}
         ORDER BY created_at DESC, attempt DESC, id DESC LIMIT $5 OFFSET $6`,
        [...params, limit, offset],
      ),
      this.db.query<{ total: number }>(`SELECT count(*)::int AS total FROM ${DELIVERIES_TABLE} WHERE ${where}`, params),
    ]);
    return { rows, total: count.total };
  }

  /** One attempt of this webhook, with the event it carried. */
  async findOwned(organizationId: string, webhookId: string, deliveryId: string): Promise<{ event_id: string } | undefined> {
    const {
      rows: [row],
    } = await this.db.query<{ event_id: string }>(`SELECT event_id FROM ${DELIVERIES_TABLE} WHERE id = $1 AND webhook_id = $2 AND organization_id = $3`, [
      deliveryId,
      webhookId,
      organizationId,
    ]);
    return row;
  }
}
