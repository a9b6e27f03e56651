import type { WebhookCreatedView, WebhookDeliveryView, WebhookUpdatedView, WebhookView } from '@contracts';
import type { DeliveryRow } from './deliveries.repository';
import { statusOf, WebhookRecord } from './webhook-record';

/** What every answer about a webhook starts with: what it is and what it is aimed at. */
function subscriptionView(webhook: WebhookRecord) {
  const { id, name, url, events, table_ids, filter, watch_fields, filter_error, rate_limit } = webhook;
  return { id, name, url, events, table_ids, filter, watch_fields, filter_error, rate_limit };
}

export function createdView(webhook: WebhookRecord, secret: string): WebhookCreatedView {
  return {
    ...subscriptionView(webhook),
    secret,
    is_active: webhook.active,
    active: webhook.active,
    status: statusOf(webhook),
    created_at: webhook.created_at.toISOString(),
  };
}

export function listView(webhook: WebhookRecord): WebhookView {
  return {
    ...subscriptionView(webhook),
    active: webhook.active,
    status: statusOf(webhook),
    created_at: webhook.created_at.toISOString(),
    updated_at: webhook.updated_at.toISOString(),
  };
}

export function updatedView(webhook: WebhookRecord): WebhookUpdatedView {
  const { created_at: _createdAt, ...updated } = listView(webhook);
  return updated;
}

export function deliveryView(row: DeliveryRow): WebhookDeliveryView {
  return {
    id: row.id,
    event_id: row.event_id,
    event_type: row.event_type,
    attempt: row.attempt,
    status_code: row.status_code,
    duration_ms: row.duration_ms,
    success: row.success,
    ...(row.error_message === null ? {} : { error_message: row.error_message }),
    response_body: row.response_body,
    next_retry_at: row.next_retry_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
  };
}
