/** `active` and `disabled` follow the `active` flag; `failed` after a delivery exhausted its retries. */
export const WEBHOOK_STATUSES = ['active', 'disabled', 'failed'] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];

/** The event kind of the payload that `POST /webhooks/{id}/test` sends. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** The answer to `POST /webhooks`: the only response that carries the secret. */
export interface WebhookCreatedView {
  id: string;
  name: string;
  url: string;
  events: string[];
  secret: string;
  is_active: boolean;
  created_at: string;
}

/** A webhook in `GET /webhooks`. */
export interface WebhookView {
  id: string;
  name: string;
  url: string;
  events: string[];
  active: boolean;
  status: WebhookStatus;
  created_at: string;
  updated_at: string;
}

/** The answer to `PATCH /webhooks/{id}`. */
export type WebhookUpdatedView = Omit<WebhookView, 'created_at'>;

/** One attempt to deliver one event to one webhook. */
export interface WebhookDeliveryView {
  id: string;
  event_id: string;
  event_type: string;
  /** 1 for the initial attempt, up to 6 after five retries. */
  attempt: number;
  /** 0 when no response arrived (network error, timeout, refused target). */
  status_code: number;
  duration_ms: number;
  success: boolean;
  error_message?: string;
  created_at: string;
}

/** The answer to `POST /webhooks/{id}/test`. */
export interface WebhookTestResultView {
  status_code: number;
  duration_ms: number;
  /** The first 4 KiB of the receiver's answer. */
  response_body: string;
  error_message?: string;
}

/** The data of a `webhook.test` payload. */
export interface WebhookTestEventData {
  webhook_id: string;
  test: true;
  event_type?: string;
}
