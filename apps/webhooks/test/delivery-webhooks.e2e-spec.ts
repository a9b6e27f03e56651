import { apiClient, ApiClient, createTestOrg, eventually, Receiver } from '@platform/testing';
import { WEBHOOK_READ_FRESH_MS } from '../src/delivery/delivery-webhooks';
import { EventPublisher } from './event-publisher';
import { createWebhook, uniquePath } from './webhook-fixtures';

/**
 * The worker holds a webhook it read for an attempt, for the next attempts (WEBHOOK_READ_FRESH_MS). A change
 * answered by the API must still reach the very next attempt: each change below comes right after a
 * delivery that made the worker hold the webhook, and the next event is published at once, well inside
 * the time the worker would otherwise go by what it held.
 */
describe('a change of a webhook reaches the next attempt of the worker that holds it', () => {
  let orgId: string;
  let api: ApiClient;
  let receiver: Receiver;
  let events: EventPublisher;

  beforeAll(async () => {
    const org = await createTestOrg();
    orgId = org.orgId;
    api = apiClient(org.key);
    receiver = await Receiver.start();
    events = await EventPublisher.connect();
  });

  afterAll(async () => {
    await events.close();
    await receiver.close();
  });

  /** Publishes one event and waits for it at `path`; answers how long that took. */
  async function deliverOne(path: string): Promise<number> {
    const started = Date.now();
    const event = await events.publish(orgId, 'row.created');
    await eventually(() => expect(receiver.at(path).some((request) => request.headers['webhook-id'] === event.id)).toBe(true));
    return Date.now() - started;
  }

  it('sends to the new URL from the next event on', async () => {
    const [first, second] = [uniquePath('held-url-a'), uniquePath('held-url-b')];
    const hook = await createWebhook(api, receiver.url(first), ['row.created']);
    await deliverOne(first);
    expect((await api.patch(`/webhooks/${hook.id}`, { url: receiver.url(second) })).status).toBe(200);
    const took = await deliverOne(second);
    expect(receiver.at(first)).toHaveLength(1);
    // Meaningful only while the worker would still go by the webhook it held.
    expect(took).toBeLessThan(WEBHOOK_READ_FRESH_MS);
  });
});
