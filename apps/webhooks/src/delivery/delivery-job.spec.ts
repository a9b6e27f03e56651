import { parseDurationList } from '@platform/config';
import { loadConfig } from '@platform/config';
import { WebhooksWorkerConfig } from '../webhooks.config';
import { attemptNumber, DELIVERY_ATTEMPTS, deliveryJob, deliveryJobId, retryDelay } from './delivery-job';

describe('delivery jobs', () => {
  const series = '33333333-3333-4333-8333-333333333333';
  const data = { seriesId: series, eventId: 'e', webhookId: 'w', eventType: 'row.created', organizationId: 'o', body: '{}' };

  it('are identified by their series, so a series is queued once', () => {
    expect(deliveryJobId(data)).toBe(series);
    expect(deliveryJob(data).opts.jobId).toBe(series);
  });

  it('queued before the event store kept their event-and-webhook id, without the colon BullMQ reserves', () => {
    const id = deliveryJobId({ eventId: '11111111-1111-4111-8111-111111111111', webhookId: '22222222-2222-4222-8222-222222222222' });
    expect(id).toBe('11111111-1111-4111-8111-111111111111_22222222-2222-4222-8222-222222222222');
    expect(id).not.toContain(':');
  });

  it('are tried six times with the custom backoff, and remembered a day after success', () => {
    const job = deliveryJob(data);
    expect(job.opts).toMatchObject({ attempts: 6, backoff: { type: 'webhook-schedule' }, removeOnComplete: true, removeOnFail: true, delay: 0 });
    expect(DELIVERY_ATTEMPTS).toBe(6);
    expect([0, 1, 5].map((made) => attemptNumber(data, made))).toEqual([1, 2, 6]);
  });

  it('queued again after two attempts have the four left, numbered on from the third', () => {
    const again = deliveryJob({ ...data, attemptsBefore: 2 }, 1_500);
    expect(again.opts).toMatchObject({ attempts: 4, delay: 1_500, jobId: series });
    expect([0, 3].map((made) => attemptNumber(again.data, made))).toEqual([3, 6]);
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
