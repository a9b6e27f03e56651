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
    gateway = await startProcess('gateway', {
      PORT: String(port),
      NATS_URL: nats.url,
      NATS_REQUEST_TIMEOUT_MS: '500',
      NATS_RESEND_AFTER_MS: '200',
      DATABASE_URL: databaseUrl,
    });
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

  it('answers 500 when no service is there at all, once the request deadline (shorter than the 2 s reconnect grace) is out', async () => {
    const started = Date.now();
    const res = await apiClient(org.key, baseUrl).get('/tables');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ success: false, error: { code: 'INTERNAL_ERROR', message: expect.any(String) } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('sends a request again while no replica holds a subscription (NATS: no responders), and the one that comes back answers it', async () => {
    const late = await connect({ servers: nats.url });
    try {
      const answering = new Promise<void>((resolve) =>
        setTimeout(() => {
          late.subscribe('tables.>', {
            queue: 'tables',
            callback: (_error, message) => {
              const { id } = JSON.parse(new TextDecoder().decode(message.data)) as { id: string };
              message.respond(JSON.stringify({ id, response: { ok: false, error: { code: 'NOT_FOUND', message: 'Table not found' } }, isDisposed: true }));
            },
          });
          resolve();
        }, 200),
      );
      const res = await apiClient(org.key, baseUrl).get('/tables/00000000-0000-4000-8000-000000000000');
      await answering;
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, error: { code: 'NOT_FOUND', message: 'Table not found' } });
    } finally {
      await late.close();
    }
  });

  it('sends a read again under the same call id when its first send goes unanswered, and a write only once', async () => {
    // A webhooks "service" that loses the first send of every call, as one on a host that died would.
    const lossy = await connect({ servers: nats.url });
    const sends: Array<{ subject: string; callId: string; at: number }> = [];
    try {
      lossy.subscribe('webhooks.>', {
        queue: 'webhooks',
        callback: (_error, message) => {
          const { id, data } = JSON.parse(new TextDecoder().decode(message.data)) as { id: string; data: { callId: string } };
          const again = sends.some((send) => send.callId === data.callId);
          sends.push({ subject: message.subject, callId: data.callId, at: Date.now() });
          if (again) message.respond(JSON.stringify({ id, response: { ok: true, data: [], pagination: { page: 1, limit: 20, total: 0 } }, isDisposed: true }));
        },
      });
      await lossy.flush();
      const api = apiClient(org.key, baseUrl);
      const started = Date.now();
      const read = await api.get('/webhooks');
      expect(read.status).toBe(200);
      expect(read.body.data).toEqual([]);
      expect(sends.map((send) => send.subject)).toEqual(['webhooks.list', 'webhooks.list']);
      expect(sends[1].callId).toBe(sends[0].callId);
      expect(sends[1].at - started).toBeGreaterThanOrEqual(190);

      sends.length = 0;
      const write = await api.post('/webhooks', { name: 'Once', url: 'https://example.com/hook', events: ['row.created'] });
      expect(write.status).toBe(500);
      expect(sends.map((send) => send.subject)).toEqual(['webhooks.create']);
    } finally {
      await lossy.close();
    }
  });
});
