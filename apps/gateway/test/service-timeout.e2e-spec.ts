import { connect, NatsConnection } from 'nats';
import type { ManagedProcess } from '@platform/runner';
import {
  apiClient,
  createScratchDatabase,
  createTestOrg,
  freePort,
  PrivateNats,
  startPrivateNats,
  startProcess,
  testDatabaseUrl,
  TestOrg,
} from '@platform/testing';

describe('a service that does not answer', () => {
  let nats: PrivateNats;
  let silent: NatsConnection;
  let gateway: ManagedProcess;
  let baseUrl: string;
  let org: TestOrg;

  beforeAll(async () => {
    // A gateway on a NATS and a database of its own (so its member-event relay cannot take the shared
    // run's events), where the only "service" takes every request and never replies.
    nats = await startPrivateNats();
    const databaseUrl = await createScratchDatabase(testDatabaseUrl());
    org = await createTestOrg({ databaseUrl });
    silent = await connect({ servers: nats.url });
    silent.subscribe('calendar.>', { queue: 'calendar' });
    const port = await freePort();
    gateway = await startProcess('gateway', { PORT: String(port), NATS_URL: nats.url, NATS_REQUEST_TIMEOUT_MS: '500', DATABASE_URL: databaseUrl });
    baseUrl = `http://127.0.0.1:${port}/v1`;
  });

  afterAll(async () => {
    await gateway?.stop();
    await silent?.close();
    await nats?.destroy();
  });

  it('answers 500 INTERNAL_ERROR after NATS_REQUEST_TIMEOUT_MS, with no internals', async () => {
    const started = Date.now();
    const res = await apiClient(org.key, baseUrl).get('/calendar/availability');
    const elapsed = Date.now() - started;
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ success: false, error: { code: 'INTERNAL_ERROR', message: 'The service did not answer in time' } });
    expect(elapsed).toBeGreaterThanOrEqual(450);
    expect(elapsed).toBeLessThan(5_000);
  });

  it('answers 500 at once when no service is there at all', async () => {
    const started = Date.now();
    const res = await apiClient(org.key, baseUrl).get('/tables');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ success: false, error: { code: 'INTERNAL_ERROR', message: expect.any(String) } });
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
