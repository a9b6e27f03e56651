import { randomUUID } from 'node:crypto';
import { WebhooksOperations } from '@contracts';
import type { ManagedProcess } from '@platform/runner';
import { PrivateNats, sendToService, startPrivateNats, startProcess } from '@platform/testing';
import { connect, NatsConnection } from 'nats';
import { ARecordDns } from './a-record-dns';

/**
 * The webhook API with private targets refused, on a NATS of its own so it takes no request of the shared
 * stack (which allows loopback receivers for the other tests). The test speaks to it as the gateway does.
 */
describe('target safety at create and update', () => {
  let nats: PrivateNats;
  let dns: ARecordDns;
  let api: ManagedProcess;
  let nc: NatsConnection;
  const org = { id: randomUUID(), plan: 0, addons: [] };

  const send = (subject: string, params: object) => sendToService(nc, subject, org, params);

  beforeAll(async () => {
    nats = await startPrivateNats();
    dns = await ARecordDns.start({
      'internal.example.test': { a: ['127.0.0.1'] },
      'private.example.test': { a: ['10.20.30.40'] },
      'mixed.example.test': { a: ['93.184.216.34', '192.168.0.10'] },
      'ula.example.test': { aaaa: ['fd00::1'] },
      'public.example.test': { a: ['93.184.216.34'] },
    });
    api = await startProcess('webhooks', {
      NATS_URL: nats.url,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false',
      WEBHOOK_CONSUMER_ENABLED: 'false',
      WEBHOOK_DNS_SERVERS: dns.servers,
    });
    nc = await connect({ servers: [nats.url] });
  });

  afterAll(async () => {
    await nc?.close();
    await api?.stop();
    await nats?.destroy();
    dns?.close();
  });

  it.each([
    ['loopback', 'http://127.0.0.1:8080/hook'],
    ['loopback, elsewhere in 127/8', 'http://127.1.2.3/'],
    ['10/8', 'http://10.1.2.3/'],
    ['172.16/12', 'http://172.16.0.1/'],
    ['172.16/12, upper end', 'http://172.31.255.254/'],
    ['192.168/16', 'https://192.168.1.1/'],
    ['169.254/16 (cloud metadata)', 'http://169.254.169.254/latest/meta-data'],
    ['100.64/10 (CGNAT)', 'http://100.64.0.1/'],
    ['unspecified', 'http://0.0.0.0/'],
    ['multicast', 'http://224.0.0.1/'],
    ['::1', 'http://[::1]:3000/'],
    ['fc00::/7', 'http://[fc00::1]/'],
    ['fc00::/7 (fd)', 'http://[fd12:3456::1]/'],
    ['link-local v6', 'http://[fe80::1]/'],
    ['IPv4-mapped v6 loopback', 'http://[::ffff:127.0.0.1]/'],
    ['a decimal loopback', 'http://2130706433/'],
    ['a host name resolving to loopback', 'http://internal.example.test/'],
    ['a host name resolving to 10/8', 'https://private.example.test/hook'],
    ['a host name with one private address among public ones', 'http://mixed.example.test/'],
    ['a host name resolving to fc00::/7', 'http://ula.example.test/'],
    ['a host name that does not resolve', 'http://nowhere.example.test/'],
  ])('refuses %s with VALIDATION_ERROR on url', async (_what, url) => {
    const reply = await send(WebhooksOperations.create.subject, { name: 'blocked', url, events: ['row.created'] });
    expect(reply).toMatchObject({ ok: false, error: { code: 'VALIDATION_ERROR', details: { field: 'url' } } });
  });

  it('says a host name is not allowed without naming what it resolves to, as for a name that does not resolve', async () => {
    const reasons = await Promise.all(
      ['http://internal.example.test/', 'https://private.example.test/hook', 'http://ula.example.test/', 'http://nowhere.example.test/'].map(async (url) => {
        const reply = await send(WebhooksOperations.create.subject, { name: 'blocked', url, events: ['row.created'] });
        return (reply as { error: { details: { reason: string } } }).error.details.reason;
      }),
    );
    expect(reasons.map((reason) => reason.replace(/^\S+/, 'HOST'))).toEqual(Array(4).fill(reasons[0].replace(/^\S+/, 'HOST')));
    expect(reasons[0]).toBe(
      'internal.example.test is not an allowed target: webhooks reach only host names that resolve to public addresses (a deployment allows such targets with WEBHOOK_ALLOW_PRIVATE_TARGETS=true)',
    );
    for (const leaked of ['127.0.0.1', '10.20.30.40', 'fd00::1', 'loopback', 'private address', 'uniqueLocal']) {
      expect(reasons.join(' ')).not.toContain(leaked);
    }
  });

  it('accepts public targets, and refuses a blocked one on update without changing anything', async () => {
    const created = await send(WebhooksOperations.create.subject, { name: 'public', url: 'https://public.example.test/hook', events: ['row.created'] });
    expect(created).toMatchObject({ ok: true, data: { url: 'https://public.example.test/hook', is_active: true } });
    const literal = await send(WebhooksOperations.create.subject, { name: 'public ip', url: 'http://93.184.216.34/', events: ['row.created'] });
    expect(literal.ok).toBe(true);
    const webhookId = (created as { data: { id: string } }).data.id;
    const refused = await send(WebhooksOperations.update.subject, { webhookId, url: 'http://internal.example.test/' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'VALIDATION_ERROR', details: { field: 'url' } } });
    const listed = await send(WebhooksOperations.list.subject, { page: 1, limit: 100 });
    expect((listed as { data: Array<{ id: string; url: string }> }).data.find((w) => w.id === webhookId)?.url).toBe('https://public.example.test/hook');
    const renamed = await send(WebhooksOperations.update.subject, { webhookId, name: 'still public' });
    expect(renamed).toMatchObject({ ok: true, data: { name: 'still public', url: 'https://public.example.test/hook' } });
  });
});
