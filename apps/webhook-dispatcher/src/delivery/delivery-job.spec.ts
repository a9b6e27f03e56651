import { parseDurationList } from '@platform/config';
import { loadConfig } from '@platform/config';
import { WebhooksWorkerConfig } from '../webhooks.config';
import { DELIVERY_ATTEMPTS, deliveryJob, deliveryJobId, retryDelay } from './delivery-job';

describe('delivery jobs', () => {
  it('are identified by event and webhook, without the colon BullMQ reserves', () => {
    const id = deliveryJobId('11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222');
    expect(id).toBe('11111111-1111-4111-8111-111111111111_22222222-2222-4222-8222-222222222222');
    expect(id).not.toContain(':');
  });

  it('are tried six times with the custom backoff, and remembered a day after success', () => {
    const job = deliveryJob({ eventId: 'e', webhookId: 'w', eventType: 'row.created', organizationId: 'o', body: '{}' });
    expect(job.opts).toMatchObject({ jobId: 'e_w', attempts: 6, backoff: { type: 'webhook-schedule' }, removeOnComplete: { age: 86_400 } });
    expect(DELIVERY_ATTEMPTS).toBe(6);
  });
});

describe('retry schedule', () => {
  it('defaults to 1m, 5m, 30m, 2h, 24h after the previous failure', () => {
    const delays = parseDurationList(loadConfig(WebhooksWorkerConfig, {}).WEBHOOK_RETRY_DELAYS) as number[];
    expect([1, 2, 3, 4, 5].map((failures) => retryDelay(delays, failures))).toEqual([60_000, 300_000, 1_800_000, 7_200_000, 86_400_000]);
  });

  it('follows WEBHOOK_RETRY_DELAYS and refuses a malformed list', () => {
    const config = loadConfig(WebhooksWorkerConfig, { WEBHOOK_RETRY_DELAYS: '200ms,400ms,600ms,800ms,1s' });
    const delays = parseDurationList(config.WEBHOOK_RETRY_DELAYS) as number[];
    expect([1, 2, 3, 4, 5].map((failures) => retryDelay(delays, failures))).toEqual([200, 400, 600, 800, 1_000]);
    expect(() => loadConfig(WebhooksWorkerConfig, { WEBHOOK_RETRY_DELAYS: '1m,soon' })).toThrow(/WEBHOOK_RETRY_DELAYS/);
  });

  it('reuses the last delay when the list is shorter than the retries', () => {
    expect(retryDelay([100, 200], 5)).toBe(200);
  });
});
