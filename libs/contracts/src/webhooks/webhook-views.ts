import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { EVENT_KINDS } from '../event-kinds';

/** `active` and `disabled` follow the `active` flag; `failed` after a delivery exhausted its retries. */
export const WEBHOOK_STATUSES = ['active', 'disabled', 'failed'] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];

/** The event kind of the payload that `POST /webhooks/{id}/test` sends. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

const EVENTS = { enum: EVENT_KINDS, enumName: 'EventKind', isArray: true, example: ['row.created'] } as const;
const TABLE_IDS = {
  type: String,
  format: 'uuid',
  isArray: true,
  nullable: true,
  description: 'the tables whose `row.*` and `table.*` events the webhook gets; null: every table',
} as const;

const FILTER = {
  type: 'object',
  additionalProperties: true,
  nullable: true,
  description: 'the rows filter a `row.*` event must match to be delivered; null: none',
} as const;
const WATCH_FIELDS = { type: String, isArray: true, nullable: true, description: 'a `row.updated` is delivered only when one of these fields changed; null: every change' } as const;
const FILTER_ERROR = {
  type: String,
  nullable: true,
  description: 'set when the table lost a field that `filter` or `watch_fields` names: the webhook then matches no row event until it is updated',
} as const;
const RATE_LIMIT = { type: 'integer', minimum: 1, maximum: 1000, nullable: true, description: 'deliveries per second at most; null: no limit' } as const;

/** What a webhook is aimed at, beyond kinds and tables: in every view of it. */
class WebhookAimView {
  @ApiProperty(FILTER)
  filter!: Record<string, unknown> | null;

  @ApiProperty(WATCH_FIELDS)
  watch_fields!: string[] | null;

  @ApiProperty(FILTER_ERROR)
  filter_error!: string | null;

  @ApiProperty(RATE_LIMIT)
  rate_limit!: number | null;
}

/** The answer to `POST /webhooks`: the only response that carries the secret. */
export class WebhookCreatedView extends WebhookAimView {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ example: 'Orders sync' })
  name!: string;

  @ApiProperty({ format: 'uri', example: 'https://example.com/hooks/platform' })
  url!: string;

  @ApiProperty(EVENTS)
  events!: string[];

  @ApiProperty(TABLE_IDS)
  table_ids!: string[] | null;

  @ApiProperty({ pattern: '^whsec_', description: 'the signing secret; shown in this answer only', example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' })
  secret!: string;

  @ApiProperty({ description: 'the interface\'s name of `active`' })
  is_active!: boolean;

  @ApiProperty({ description: 'as in every other webhook view' })
  active!: boolean;

  @ApiProperty({ enum: WEBHOOK_STATUSES, enumName: 'WebhookStatus' })
  status!: WebhookStatus;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;
}

/** The answer to `PATCH /webhooks/{id}`. */
export class WebhookUpdatedView extends WebhookAimView {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty({ format: 'uri' })
  url!: string;

  @ApiProperty(EVENTS)
  events!: string[];

  @ApiProperty(TABLE_IDS)
  table_ids!: string[] | null;

  @ApiProperty({ description: 'false while disabled' })
  active!: boolean;

  @ApiProperty({ enum: WEBHOOK_STATUSES, enumName: 'WebhookStatus', description: '`failed` after a delivery exhausted its retries, until the next success' })
  status!: WebhookStatus;

  @ApiProperty({ format: 'date-time' })
  updated_at!: string;
}

/** A webhook in `GET /webhooks` and `GET /webhooks/{webhook_id}`: never with its secret. */
export class WebhookView extends WebhookUpdatedView {
  @ApiProperty({ format: 'date-time' })
  created_at!: string;
}

/** One attempt to deliver one event to one webhook. */
export class WebhookDeliveryView {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ format: 'uuid', description: 'the event id, the same on every attempt' })
  event_id!: string;

  @ApiProperty({ example: 'row.created', description: 'an event kind, or webhook.test' })
  event_type!: string;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: 6, description: '1 for the initial attempt, up to 6 after five retries' })
  attempt!: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: '0 when no response arrived (network error, timeout, refused target)' })
  status_code!: number;

  @ApiProperty({ type: 'integer', minimum: 0 })
  duration_ms!: number;

  @ApiProperty()
  success!: boolean;

  @ApiPropertyOptional({ description: 'on failures: what went wrong' })
  error_message?: string;

  @ApiProperty({ type: String, nullable: true, description: "the first 1,024 bytes of the receiver's answer, as text; null when no answer arrived" })
  response_body!: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'when the next attempt is scheduled; null when none is (it succeeded, or was the last)' })
  next_retry_at!: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;
}

/** The answer to `POST /webhooks/{id}/test`. */
export class WebhookTestResultView {
  @ApiProperty({ type: 'integer', minimum: 0, description: '0 when no response arrived' })
  status_code!: number;

  @ApiProperty({ type: 'integer', minimum: 0 })
  duration_ms!: number;

  @ApiProperty({ description: "the first 4 KiB of the receiver's answer" })
  response_body!: string;

  @ApiPropertyOptional({ description: 'on failure: what went wrong' })
  error_message?: string;
}

/** The answer to `POST /webhooks/{id}/rotate-secret`: the only response that carries the new secret. */
export class WebhookSecretRotatedView {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ pattern: '^whsec_', description: 'the new signing secret; shown in this answer only' })
  secret!: string;

  @ApiProperty({ format: 'date-time', description: 'until then the previous secret signs too (a second `webhook-signature` entry)' })
  previous_secret_expires_at!: string;
}

/** The answer to `POST /webhooks/{id}/deliveries/{delivery_id}/redeliver`. */
export class WebhookRedeliveryView {
  @ApiProperty({ format: 'uuid' })
  event_id!: string;

  @ApiProperty({ format: 'uuid' })
  webhook_id!: string;

  @ApiProperty({ enum: ['queued'] })
  status!: 'queued';
}

export const RECOVERY_STATUSES = ['queued', 'running', 'finished', 'failed'] as const;
export type RecoveryStatus = (typeof RECOVERY_STATUSES)[number];

/** The answer to `POST /webhooks/{id}/recover`: the recovery runs in the background; follow it by its id. */
export class WebhookRecoveryStartedView {
  @ApiProperty({ format: 'uuid' })
  recovery_id!: string;

  @ApiProperty({ enum: ['queued'] })
  status!: 'queued';
}

/** `GET /webhooks/{id}/recoveries/{recovery_id}`: how far a recovery got. */
export class WebhookRecoveryView {
  @ApiProperty({ enum: RECOVERY_STATUSES, description: '`queued`, `running`, then `finished` (or `failed`, when it could not go on)' })
  status!: RecoveryStatus;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Events queued again so far' })
  queued!: number;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  started_at!: string | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  finished_at!: string | null;
}
