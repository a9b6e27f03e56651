import type { ApiClient } from '@platform/testing';

export interface CreatedWebhook {
  id: string;
  secret: string;
  url: string;
}

let counter = 0;

/** A fresh path on the receiver for each webhook, so tests sharing a receiver never see each other's requests. */
export function uniquePath(label: string): string {
  counter += 1;
  return `/${label}-${process.pid}-${counter}-${Math.random().toString(36).slice(2, 8)}`;
}

export async function createWebhook(api: ApiClient, url: string, events: string[], name = 'e2e hook'): Promise<CreatedWebhook> {
  const response = await api.post('/webhooks', { name, url, events });
  if (response.status !== 201) throw new Error(`webhook create failed: ${response.status} ${JSON.stringify(response.body)}`);
  return { id: response.body.data.id, secret: response.body.data.secret, url };
}

export async function deliveriesOf(api: ApiClient, webhookId: string, query = ''): Promise<any[]> {
  const response = await api.get(`/webhooks/${webhookId}/deliveries${query}`);
  if (response.status !== 200) throw new Error(`deliveries failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data;
}

export async function statusOf(api: ApiClient, webhookId: string): Promise<string | undefined> {
  const response = await api.get('/webhooks?limit=100');
  return response.body.data.find((webhook: { id: string }) => webhook.id === webhookId)?.status;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
