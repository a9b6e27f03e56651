import { ApiClient, apiClient, createTestOrg, eventually, Receiver } from '@platform/testing';
import { EventPublisher } from './event-publisher';

export interface CreatedWebhook {
  id: string;
  secret: string;
  url: string;
}

/** What a describe block of webhook tests works with: its organization, a stranger to it, and a receiver. */
export interface WebhookScene {
  orgId: string;
  api: ApiClient;
  /** Another organization's client: what it must not see or change. */
  other: ApiClient;
  receiver: Receiver;
}

/** A scene that also publishes events straight onto the stream, as the tables service would. */
export interface PublishingScene extends WebhookScene {
  events: EventPublisher;
}

/** The scene of a describe block: made before its tests, the receiver (and the publisher) closed after them. */
export function webhookScene(): WebhookScene;
export function webhookScene(options: { publisher: true }): PublishingScene;
export function webhookScene({ publisher = false } = {}): WebhookScene {
  const scene = {} as Partial<PublishingScene>;
  beforeAll(async () => {
    const org = await createTestOrg();
    scene.orgId = org.orgId;
    scene.api = apiClient(org.key);
    scene.other = apiClient((await createTestOrg()).key);
    scene.receiver = await Receiver.start();
    if (publisher) scene.events = await EventPublisher.connect();
  });
  afterAll(async () => {
    await scene.events?.close();
    await scene.receiver?.close();
  });
  return scene as PublishingScene;
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

/** Starts a recovery (202 and its id), waits until it has finished in the background, and answers its final state. */
export async function recoverAndWait(api: ApiClient, webhookId: string, body: unknown): Promise<{ status: string; queued: number; started_at: string; finished_at: string }> {
  const started = await api.post(`/webhooks/${webhookId}/recover`, body);
  if (started.status !== 202) throw new Error(`recover failed: ${started.status} ${JSON.stringify(started.body)}`);
  expect(started.body.data).toEqual({ recovery_id: expect.any(String), status: 'queued' });
  return eventually(
    async () => {
      const { body: view } = await api.get(`/webhooks/${webhookId}/recoveries/${started.body.data.recovery_id}`);
      expect(view.data.status).toBe('finished');
      return view.data;
    },
    { timeoutMs: 30_000 },
  );
}
