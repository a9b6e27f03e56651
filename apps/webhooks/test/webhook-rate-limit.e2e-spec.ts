import type { ManagedProcess } from '@platform/runner';
import { ApiClient, apiClient, createTestOrg, eventually, Receiver, startProcess } from '@platform/testing';
import { deliveriesOf, uniquePath } from './webhook-fixtures';

const RATE = 4;
const BURST = 16;

// A burst at four deliveries per second takes four seconds on top of the whole way from the gateway.
jest.setTimeout(120_000);

/** The most arrivals within any one second. */
function mostInOneSecond(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let first = 0, last = 0; last < sorted.length; last += 1) {
    while (sorted[last] - sorted[first] >= 1_000) first += 1;
    most = Math.max(most, last - first + 1);
  }
  return most;
}

describe('a webhook rate limit, shared by every worker', () => {
  let api: ApiClient;
  let receiver: Receiver;
  let secondWorker: ManagedProcess;

  beforeAll(async () => {
    api = apiClient((await createTestOrg()).key);
    receiver = await Receiver.start();
    // A second worker on the stack's own queue: the limit holds across both.
    secondWorker = await startProcess('webhooks-worker');
  });

  afterAll(async () => {
    await secondWorker.stop();
    await receiver.close();
  });

  it('spaces a burst to its rate, dropping nothing and counting no attempt, while another webhook gets the same burst at once', async () => {
    const table = (await api.post('/tables', { name: `Burst ${uniquePath('t').slice(1, 12)}`, fields: [{ name: 'N', field_type: 'number' }] })).body.data;
    const limitedPath = uniquePath('limited');
    const freePath = uniquePath('free');
    const hook = async (path: string, extra: Record<string, unknown>) => {
      const response = await api.post('/webhooks', { name: path, url: receiver.url(path), events: ['row.created'], table_ids: [table.id], ...extra });
      expect(response.status).toBe(201);
      return response.body.data;
    };
    const limited = await hook(limitedPath, { rate_limit: RATE });
    expect(limited.rate_limit).toBe(RATE);
    const free = await hook(freePath, {});

    const created = await api.post(`/tables/${table.id}/rows/batch`, { rows: Array.from({ length: BURST }, (_, n) => ({ data: { n } })) });
    expect(created.status).toBe(201);

    await eventually(() => expect(receiver.at(freePath)).toHaveLength(BURST), { timeoutMs: 30_000 });
    await eventually(() => expect(receiver.at(limitedPath)).toHaveLength(BURST), { timeoutMs: 60_000 });
    const arrivals = (path: string) => receiver.at(path).map((hit) => hit.receivedAt);
    const limitedTimes = arrivals(limitedPath);
    const freeTimes = arrivals(freePath);

    // Starts are 250 ms apart in Redis's time. An arrival never leads its start, but lags it by the worker's and the
    // receiver's delays (over 250 ms once on a loaded CI machine): with up to 500 ms of lag a second of arrivals holds
    // at most the starts of 1.5 s, six; no limit would put all sixteen in it, and the span below holds the average.
    expect(mostInOneSecond(limitedTimes)).toBeLessThanOrEqual(RATE + 2);
    expect(Math.max(...limitedTimes) - Math.min(...limitedTimes)).toBeGreaterThanOrEqual(((BURST - 1) * 1_000) / RATE - 500);
    // The other webhook was not held back: its whole burst arrived before the limited one's was half through.
    expect(Math.max(...freeTimes)).toBeLessThan(Math.min(...limitedTimes) + ((BURST / 2) * 1_000) / RATE);

    // Waiting used no attempt: one successful first attempt per event, nothing dropped.
    // An attempt is recorded just after its receiver answered: the last record may follow the last receipt.
    await eventually(async () => expect(await deliveriesOf(api, limited.id, '?limit=100')).toHaveLength(BURST), { timeoutMs: 10_000 });
    const records = await deliveriesOf(api, limited.id, '?limit=100');
    expect(records.every((record) => record.success && record.attempt === 1)).toBe(true);
    await eventually(async () => expect(await deliveriesOf(api, free.id, '?limit=100')).toHaveLength(BURST), { timeoutMs: 10_000 });
  });
});
