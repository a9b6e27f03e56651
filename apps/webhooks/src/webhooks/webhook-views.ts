import type { WebhookCreatedView, WebhookDeliveryView, WebhookUpdatedView, WebhookView } from '@contracts';
import type { DeliveryRow } from './deliveries.repository';
import { statusOf, WebhookRecord } from './webhook-record';

function aimView(webhook: WebhookRecord) {
  return { filter: webhook.filter, watch_fields: webhook.watch_fields, filter_error: webhook.filter_error, rate_limit: webhook.rate_limit };
}

export function createdView(webhook: WebhookRecord, secret: string): WebhookCreatedView {
  return {
    id: webhook.id,
    name: webhook.name,
    url: webhook.url,
    events: webhook.events,
    table_ids: webhook.table_ids,
    ...aimView(webhook),
    secret,
    is_active: webhook.active,
    active: webhook.active,
    status: statusOf(webhook),
    created_at: webhook.created_at.toISOString(),
  };
}

export function listView(webhook: WebhookRecord): WebhookView {
  return {
    id: webhook.id,
    name: webhook.name,
    url: webhook.url,
    events: webhook.events,
    table_ids: webhook.table_ids,
    ...aimView(webhook),
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
