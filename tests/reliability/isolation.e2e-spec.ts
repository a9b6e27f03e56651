import { EVENT_KINDS } from '@contracts';
import { ApiClient, apiClient, createTestOrg, eventually, Receiver } from '@platform/testing';

interface Tenant {
  orgId: string;
  api: ApiClient;
  tableId: string;
  rowId: string;
  webhookId: string;
  domainId: string;
  hookPath: string;
}

async function seedTenant(label: string, receiver: Receiver): Promise<Tenant> {
  const org = await createTestOrg({ plan: 250 });
  const api = apiClient(org.key);
  // Subscribed first, so the table and row created next are delivered to it.
  const hookPath = `/isolation-${label}-${process.pid}`;
  const webhook = await api.post('/webhooks', { name: `Isolation ${label}`, url: receiver.url(hookPath), events: [...EVENT_KINDS] });
  const table = await api.post('/tables', { name: `Isolation ${label}`, fields: [{ name: 'Title', field_type: 'text' }] });
  const row = await api.post(`/tables/${table.body.data.id}/rows`, { data: { title: `${label} secret row` } });
  const domain = await api.post('/domains', { domain: `isolation-${label}-${Date.now().toString(36)}-${process.pid}.example.com` });
  const availability = await api.put('/calendar/availability', { schedules: [{ day_of_week: 3, start_time: '10:00:00', end_time: '11:00:00' }] });
  expect([table.status, row.status, webhook.status, domain.status, availability.status]).toEqual([201, 201, 201, 201, 200]);
  return { orgId: org.orgId, api, tableId: table.body.data.id, rowId: row.body.data.id, webhookId: webhook.body.data.id, domainId: domain.body.data.id, hookPath };
}

async function snapshotOf(t: Tenant): Promise<unknown> {
  const paths = [
    '/tables?limit=100', `/tables/${t.tableId}`, `/tables/${t.tableId}/rows?limit=100`, `/tables/${t.tableId}/rows/${t.rowId}`,
    '/webhooks?limit=100', `/webhooks/${t.webhookId}/deliveries?limit=100`, '/domains?limit=100', `/domains/${t.domainId}`,
    `/domains/${t.domainId}/emails`, '/calendar/availability',
  ];
  return Promise.all(
    paths.map(async (path) => {
      const { status, body } = await t.api.get(path);
      return { path, status, body };
    }),
  );
}

describe("one organization's keys against another's resources", () => {
  let receiver: Receiver;
  let a: Tenant;
  let b: Tenant;

  beforeAll(async () => {
    receiver = await Receiver.start();
    [a, b] = await Promise.all([seedTenant('a', receiver), seedTenant('b', receiver)]);
    // The seeding's own deliveries (table.created, row.created) are recorded before the snapshot is taken.
    await eventually(
      async () => expect((await b.api.get(`/webhooks/${b.webhookId}/deliveries?limit=100`)).body.data.map((d: { event_type: string }) => d.event_type).sort()).toEqual(['row.created', 'table.created']),
      { timeoutMs: 15_000 },
    );
  });

  afterAll(async () => {
    await receiver?.close();
  });

  it('answers 404 NOT_FOUND on every endpoint given the other organization ids, and changes nothing', async () => {
    const before = await snapshotOf(b);
    const attempts: Array<[string, string, unknown?]> = [
      ['GET', `/tables/${b.tableId}`],
      ['PATCH', `/tables/${b.tableId}`, { name: 'Hijacked' }],
      ['DELETE', `/tables/${b.tableId}`],
      ['GET', `/tables/${b.tableId}/rows`],
      ['POST', `/tables/${b.tableId}/rows`, { data: { title: 'planted' } }],
      ['GET', `/tables/${b.tableId}/rows/${b.rowId}`],
      ['PATCH', `/tables/${b.tableId}/rows/${b.rowId}`, { data: { title: 'overwritten' } }],
      ['DELETE', `/tables/${b.tableId}/rows/${b.rowId}`],
      // Own table, other organization's row; other organization's table, own row.
      ['GET', `/tables/${a.tableId}/rows/${b.rowId}`],
      ['PATCH', `/tables/${a.tableId}/rows/${b.rowId}`, { data: { title: 'overwritten' } }],
      ['DELETE', `/tables/${a.tableId}/rows/${b.rowId}`],
      ['GET', `/tables/${b.tableId}/rows/${a.rowId}`],
      ['PATCH', `/webhooks/${b.webhookId}`, { url: receiver.url('/stolen'), events: ['row.created'] }],
      ['DELETE', `/webhooks/${b.webhookId}`],
      ['GET', `/webhooks/${b.webhookId}/deliveries`],
      ['POST', `/webhooks/${b.webhookId}/test`, {}],
      ['GET', `/domains/${b.domainId}`],
      ['GET', `/domains/${b.domainId}/verify`],
      ['DELETE', `/domains/${b.domainId}`],
      ['GET', `/domains/${b.domainId}/emails`],
      ['POST', `/domains/${b.domainId}/emails`, { local_part: 'ceo', is_primary: true }],
    ];
    const answers = await Promise.all(
      attempts.map(async ([method, path, body]) => {
        const res = await a.api.request(method, path, body === undefined ? {} : { body });
        return `${method} ${path.replace(b.tableId, '{B table}').replace(b.rowId, '{B row}').replace(a.tableId, '{A table}').replace(a.rowId, '{A row}').replace(b.webhookId, '{B webhook}').replace(b.domainId, '{B domain}')} -> ${res.status} ${res.body?.error?.code}`;
      }),
    );
    expect(answers.filter((answer) => !answer.endsWith('-> 404 NOT_FOUND'))).toEqual([]);
    expect(answers).toHaveLength(attempts.length);

    // The lists of A name nothing of B's.
    const lists = await Promise.all(['/tables?limit=100', '/webhooks?limit=100', '/domains?limit=100'].map((path) => a.api.get(path)));
    const listed = JSON.stringify(lists.map((res) => res.body));
    for (const id of [b.tableId, b.rowId, b.webhookId, b.domainId]) expect(listed).not.toContain(id);
    // A replacing its availability leaves B's as it was.
    expect((await a.api.put('/calendar/availability', { schedules: [] })).status).toBe(200);

    expect(await snapshotOf(b)).toEqual(before);
    expect(receiver.at('/stolen')).toHaveLength(0);
  });

  it("never delivers one organization's events to the other's webhook", async () => {
    const bRows = await Promise.all([1, 2, 3].map((n) => b.api.post(`/tables/${b.tableId}/rows`, { data: { title: `b ${n}` } })));
    await b.api.patch(`/tables/${b.tableId}/rows/${bRows[0].body.data.id}`, { data: { title: 'b changed' } });
    await b.api.delete(`/tables/${b.tableId}/rows/${bRows[1].body.data.id}`);
    await b.api.patch(`/tables/${b.tableId}`, { description: 'changed by b' });
    // A's own write is the control: when A's webhook has it, B's events (sent earlier) had their chance.
    const control = await a.api.post(`/tables/${a.tableId}/rows`, { data: { title: 'a control' } });
    await eventually(
      () => {
        const payloads = receiver.at(a.hookPath).map((hit) => JSON.parse(hit.body.toString('utf8')));
        expect(payloads.some((p) => p.data?.row_id === control.body.data.id)).toBe(true);
        expect(receiver.at(b.hookPath).length).toBeGreaterThanOrEqual(7);
      },
      { timeoutMs: 20_000 },
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const orgsSeenBy = (path: string) => new Set(receiver.at(path).map((hit) => JSON.parse(hit.body.toString('utf8')).organization_id));
    expect(orgsSeenBy(a.hookPath)).toEqual(new Set([a.orgId]));
    expect(orgsSeenBy(b.hookPath)).toEqual(new Set([b.orgId]));
    const bEventIds = new Set(receiver.at(b.hookPath).map((hit) => hit.headers['x-webhook-id']));
    const aDeliveries = await a.api.get(`/webhooks/${a.webhookId}/deliveries?limit=100`);
    expect(aDeliveries.body.data.length).toBeGreaterThan(0);
    expect(aDeliveries.body.data.filter((d: { event_id: string }) => bEventIds.has(d.event_id))).toEqual([]);
  });
});
