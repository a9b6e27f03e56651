import type { FieldType, WebhookStatus } from '@contracts';

/** A webhook row as the service reads it; the secret stays sealed until a request is signed. */
export interface WebhookRecord {
  id: string;
  organization_id: string;
  name: string;
  url: string;
  events: string[];
  /** The tables whose `row.*`/`table.*` events it gets; null for every table. */
  table_ids: string[] | null;
  filter: Record<string, unknown> | null;
  /** The type of each field the filter names, as the table had it when the filter was checked. */
  filter_fields: Record<string, FieldType> | null;
  watch_fields: string[] | null;
  /** Why the webhook matches no row event: its table lost a field it names. */
  filter_error: string | null;
  /** Deliveries per second at most; null for no limit. */
  rate_limit: number | null;
  active: boolean;
  failed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface SealedWebhookRecord extends WebhookRecord {
  secret_ciphertext: Buffer;
  /** The secret the last rotation replaced; it signs too until its expiry. */
  previous_secret_ciphertext: Buffer | null;
  previous_secret_expires_at: Date | null;
}

export function statusOf(webhook: Pick<WebhookRecord, 'active' | 'failed_at'>): WebhookStatus {
  if (!webhook.active) return 'disabled';
  return webhook.failed_at ? 'failed' : 'active';
}
