import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import type { DomainEvent, DomainEventData } from '@contracts';
import { ManagedProcess } from '@platform/runner';
import { ApiClient, apiClient, createTestOrg, eventually, stackState, startProcess, testDnsQueryCount } from '@platform/testing';
import { ageDomain, blackholeDomain, DnsRecordView, makeDue, nextCheckOf, publish, uniqueDomain, unpublishAll } from './dns-fixtures';

const HOUR = 3_600_000;
const DOMAIN_EVENTS = ['domain.verified', 'domain.failed', 'domain.degraded', 'domain.deleted'];

interface Added {
  id: string;
  name: string;
  records: DnsRecordView[];
  created_at: string;
}

/** A webhook receiver on loopback that keeps every event it is sent. */
async function startReceiver(): Promise<{ url: string; events: DomainEvent<DomainEventData>[]; close(): Promise<void> }> {
  const events: DomainEvent<DomainEventData>[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      events.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/domain-events`,
    events,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('the background re-check of domains', () => {
  let api: ApiClient;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    api = apiClient((await createTestOrg({ plan: 250 })).key);
    receiver = await startReceiver();
    const webhook = await api.post('/webhooks', { name: 'Mail sender', url: receiver.url, events: DOMAIN_EVENTS });
    expect(webhook.status).toBe(201);
  });

  afterAll(async () => {
    await unpublishAll();
    await receiver?.close();
  });

  async function add(name = uniqueDomain()): Promise<Added> {
    const response = await api.post('/domains', { domain: name });
    expect(response.status).toBe(201);
    const { id, dns_records, created_at } = response.body.data;
    return { id, name, records: dns_records, created_at };
  }

  const read = async (id: string) => (await api.get(`/domains/${id}`)).body.data;
  const eventsOf = (id: string, kind?: string) =>
    receiver.events.filter((event) => event.data.domain_id === id && (!kind || event.event === kind));

  it('schedules the first check one DOMAIN_RECHECK_SCHEDULE delay (1m) after creation', async () => {
    const domain = await add();
    const next = await nextCheckOf(domain.id);
    expect(next!.getTime() - Date.parse(domain.created_at)).toBe(60_000);
  });

  it('records a due check without any client call, then activates the domain once its records appear', async () => {
    const domain = await add();
    await makeDue(domain.id);
    const checked = await eventually(async () => {
      const view = await read(domain.id);
      expect(view.last_checked_at).toEqual(expect.stringMatching(/Z$/));
      return view;
    });
    expect(checked).toMatchObject({ status: 'pending', mx_verified: false, issues: expect.arrayContaining([expect.stringMatching(/^Missing MX record/)]) });
    // Still pending, so the next check is the schedule's next delay still ahead: 1m after creation.
    expect((await nextCheckOf(domain.id))!.getTime() - Date.parse(domain.created_at)).toBe(60_000);

    await publish(domain.records);
    await makeDue(domain.id);
    const active = await eventually(async () => {
      const view = await read(domain.id);
      expect(view.status).toBe('active');
      return view;
    });
    expect(active).toMatchObject({ mx_verified: true, spf_verified: true, dkim_verified: true, verified_at: expect.stringMatching(/Z$/) });
    const next = (await nextCheckOf(domain.id))!.getTime();
    expect(Math.abs(next - (Date.parse(active.last_checked_at) + 24 * HOUR))).toBeLessThan(1_000);

    const [verified] = await eventually(() => {
      expect(eventsOf(domain.id, 'domain.verified')).toHaveLength(1);
      return eventsOf(domain.id, 'domain.verified');
    });
    expect(verified).toMatchObject({
      event: 'domain.verified',
      data: { domain_id: domain.id, domain: domain.name, status: 'active', issues: [expect.stringMatching(/^Recommended: no DMARC record/)] },
    });
  });

  it('tells domain.degraded once when an active domain loses a record, and keeps it active', async () => {
    const domain = await add();
    await publish(domain.records);
    expect((await api.get(`/domains/${domain.id}/verify`)).body.data.status).toBe('active');

    await publish(domain.records, { txt: [] });
    await makeDue(domain.id);
    const [degraded] = await eventually(() => {
      expect(eventsOf(domain.id, 'domain.degraded')).toHaveLength(1);
      return eventsOf(domain.id, 'domain.degraded');
    });
    expect(degraded.data).toEqual({
      domain_id: domain.id,
      domain: domain.name,
      status: 'active',
      issues: [expect.stringMatching(/^Missing SPF record/), expect.stringMatching(/^Recommended: no DMARC record/)],
    });
    expect(await read(domain.id)).toMatchObject({ status: 'active', spf_verified: false, mx_verified: true });

    // Still broken at the next check: nothing new to tell.
    const checkedAt = (await read(domain.id)).last_checked_at;
    await makeDue(domain.id);
    await eventually(async () => expect((await read(domain.id)).last_checked_at).not.toBe(checkedAt));
    expect(eventsOf(domain.id, 'domain.degraded')).toHaveLength(1);
  });

  it('fails a domain when its window ends and tells domain.failed; deleting tells domain.deleted', async () => {
    const domain = await add();
    await ageDomain(domain.id, 73);
    await makeDue(domain.id);
    const [failed] = await eventually(() => {
      expect(eventsOf(domain.id, 'domain.failed')).toHaveLength(1);
      return eventsOf(domain.id, 'domain.failed');
    });
    expect(failed.data).toMatchObject({ domain_id: domain.id, status: 'failed', issues: expect.arrayContaining([expect.stringMatching(/^Missing MX record/)]) });
    expect(await nextCheckOf(domain.id)).toBeNull();

    expect((await api.delete(`/domains/${domain.id}`)).status).toBe(200);
    const [deleted] = await eventually(() => {
      expect(eventsOf(domain.id, 'domain.deleted')).toHaveLength(1);
      return eventsOf(domain.id, 'domain.deleted');
    });
    expect(deleted.data).toMatchObject({ domain_id: domain.id, domain: domain.name, status: 'failed' });
  });

  it('releases a name it let fail to another organization: the failed domain is deleted with domain.deleted', async () => {
    const domain = await add();
    const other = apiClient((await createTestOrg({ plan: 250 })).key);
    const blocked = await other.post('/domains', { domain: domain.name });
    expect([blocked.status, blocked.body.error?.code]).toEqual([400, 'CONFLICT']);
    await ageDomain(domain.id, 73);
    await makeDue(domain.id);
    await eventually(async () => expect((await read(domain.id)).status).toBe('failed'));
    // The organization that let it fail keeps it while nobody else wants it: adding it again is still a CONFLICT.
    expect((await api.post('/domains', { domain: domain.name })).body.error?.code).toBe('CONFLICT');

    const taken = await other.post('/domains', { domain: domain.name });
    expect(taken.status).toBe(201);
    expect(taken.body.data).toMatchObject({ domain: domain.name, status: 'pending' });
    expect((await api.get(`/domains/${domain.id}`)).status).toBe(404);
    const [deleted] = await eventually(() => {
      expect(eventsOf(domain.id, 'domain.deleted')).toHaveLength(1);
      return eventsOf(domain.id, 'domain.deleted');
    });
    expect(deleted.data).toMatchObject({ domain_id: domain.id, domain: domain.name, status: 'failed' });
    // A pending (or active) domain still blocks everyone else.
    expect((await api.post('/domains', { domain: domain.name })).body.error?.code).toBe('CONFLICT');
  });

  it('goes on with other domains while a name server stays silent', async () => {
    // DNS_LOOKUP_TIMEOUT_MS is 1 s in the test stack: each silent domain holds one check slot for that long.
    const silent = await Promise.all(Array.from({ length: 25 }, () => add(blackholeDomain())));
    const healthy = await add();
    await publish(healthy.records);
    const started = Date.now();
    await makeDue(...silent.map((domain) => domain.id), healthy.id);
    // Checked one after another, the silent ones would hold it back 25 s; 12 s leaves a loaded machine room.
    await eventually(async () => expect((await read(healthy.id)).status).toBe('active'), { timeoutMs: 12_000 });
    expect(Date.now() - started).toBeLessThan(12_000);
    await eventually(
      async () => {
        for (const domain of silent) {
          const view = await read(domain.id);
          expect(view).toMatchObject({ status: 'pending', last_checked_at: expect.stringMatching(/Z$/) });
          expect(view.issues.every((issue: string) => /lookup timed out/.test(issue))).toBe(true);
        }
      },
      { timeoutMs: 15_000 },
    );
  });

  it('counts its checks in the Prometheus metrics of the domains process', async () => {
    const domain = await add();
    await makeDue(domain.id);
    await eventually(async () => expect((await read(domain.id)).last_checked_at).not.toBeNull());
    const res = await fetch(`http://127.0.0.1:${stackState().healthPorts.domains}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toMatch(/^domain_checks_total\{trigger="schedule"\} [1-9]\d*$/m);
  });

  describe('with a second domains replica', () => {
    let second: ManagedProcess;

    // Its own schedule tells afterwards which replica checked a domain: the next check is 7m after creation, not 1m.
    beforeAll(async () => {
      second = await startProcess('domains', { DOMAIN_RECHECK_SCHEDULE: '7m,8m' });
    });

    afterAll(async () => {
      await second?.stop();
    });

    it('shares the due domains and checks each exactly once', async () => {
      // Silent name servers make every check last the lookup bound, so both replicas are busy at once.
      const control = await add(blackholeDomain());
      await api.get(`/domains/${control.id}/verify`);
      const oneCheck = await testDnsQueryCount(control.records[2].name);
      expect(oneCheck).toBeGreaterThan(0);

      const domains = await Promise.all(Array.from({ length: 40 }, () => add(blackholeDomain())));
      await makeDue(...domains.map((domain) => domain.id));
      await eventually(
        async () => {
          for (const domain of domains) expect((await read(domain.id)).last_checked_at).not.toBeNull();
        },
        { timeoutMs: 20_000 },
      );
      const lookups = await Promise.all(domains.map((domain) => testDnsQueryCount(domain.records[2].name)));
      expect(lookups).toEqual(domains.map(() => oneCheck));
      const offsets = await Promise.all(domains.map(async (domain) => ((await nextCheckOf(domain.id))!.getTime() - Date.parse(domain.created_at)) / 60_000));
      expect(offsets.filter((minutes) => minutes === 1).length).toBeGreaterThan(0);
      expect(offsets.filter((minutes) => minutes === 7).length).toBeGreaterThan(0);
      expect(offsets.filter((minutes) => minutes !== 1 && minutes !== 7)).toEqual([]);
    });
  });
});
