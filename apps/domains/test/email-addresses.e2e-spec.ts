import { ApiClient, apiClient, createTestOrg } from '@platform/testing';
import { publish, uniqueDomain, unpublishAll } from './dns-fixtures';

describe('email addresses on domains', () => {
  let api: ApiClient;
  let activeId: string;
  let activeName: string;

  async function addActiveDomain(): Promise<{ id: string; name: string }> {
    const name = uniqueDomain();
    const created = await api.post('/domains', { domain: name });
    await publish(created.body.data.dns_records);
    const verified = await api.get(`/domains/${created.body.data.id}/verify`);
    expect(verified.body.data.status).toBe('active');
    return { id: created.body.data.id, name };
  }

  beforeAll(async () => {
    api = apiClient((await createTestOrg({ plan: 500 })).key);
    ({ id: activeId, name: activeName } = await addActiveDomain());
  });

  afterAll(() => unpublishAll());

  it('refuses an address on a pending domain: DOMAIN_NOT_VERIFIED', async () => {
    const pending = await api.post('/domains', { domain: uniqueDomain() });
    const response = await api.post(`/domains/${pending.body.data.id}/emails`, { local_part: 'hello', is_primary: false });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, error: { code: 'DOMAIN_NOT_VERIFIED' } });
    expect((await api.get(`/domains/${pending.body.data.id}/emails`)).body.pagination.total).toBe(0);
  });

  it('creates a lowercased address: 201 with id, address, is_primary, created_at', async () => {
    const response = await api.post(`/domains/${activeId}/emails`, { local_part: 'John.Doe+Sales', is_primary: false });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      success: true,
      data: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        address: `john.doe+sales@${activeName}`,
        is_primary: false,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      },
    });
  });

  it('takes is_primary as optional, false by default', async () => {
    const response = await api.post(`/domains/${activeId}/emails`, { local_part: 'no-flag' });
    expect(response.status).toBe(201);
    expect(response.body.data.is_primary).toBe(false);
  });

  it('refuses a duplicate address, whatever its case: CONFLICT', async () => {
    expect((await api.post(`/domains/${activeId}/emails`, { local_part: 'dup', is_primary: false })).status).toBe(201);
    const response = await api.post(`/domains/${activeId}/emails`, { local_part: 'DUP', is_primary: true });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('CONFLICT');
  });

  it.each([
    ['an empty local part', ''],
    ['a leading dot', '.john'],
    ['a trailing dot', 'john.'],
    ['two dots in a row', 'jo..hn'],
    ['a space', 'jo hn'],
    ['an at sign', 'jo@hn'],
    ['a quoted string', '"john"'],
    ['65 characters', 'a'.repeat(65)],
    ['a non-ASCII letter', 'jöhn'],
  ])('refuses %s as VALIDATION_ERROR on local_part', async (_, local_part) => {
    const response = await api.post(`/domains/${activeId}/emails`, { local_part, is_primary: false });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'local_part' } });
  });

  it('accepts 64 characters and every atext symbol', async () => {
    expect((await api.post(`/domains/${activeId}/emails`, { local_part: 'b'.repeat(64) })).status).toBe(201);
    expect((await api.post(`/domains/${activeId}/emails`, { local_part: "a!#$%&'*+-/=?^_`{|}~z" })).status).toBe(201);
  });

  it('refuses a non-boolean is_primary and unknown properties', async () => {
    for (const body of [{ local_part: 'x1', is_primary: 'yes' }, { local_part: 'x2', extra: 1 }, { local_part: 7 }]) {
      const response = await api.post(`/domains/${activeId}/emails`, body);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
    }
  });

  it('keeps one primary per domain: a new primary demotes the old one', async () => {
    const domain = await addActiveDomain();
    const first = await api.post(`/domains/${domain.id}/emails`, { local_part: 'first', is_primary: true });
    const second = await api.post(`/domains/${domain.id}/emails`, { local_part: 'second', is_primary: true });
    expect(first.body.data.is_primary).toBe(true);
    expect(second.body.data.is_primary).toBe(true);
    const list = await api.get(`/domains/${domain.id}/emails`);
    const primaries = list.body.data.filter((a: { is_primary: boolean }) => a.is_primary);
    expect(primaries.map((a: { address: string }) => a.address)).toEqual([`second@${domain.name}`]);
  });

  it('keeps one primary under simultaneous creates', async () => {
    const domain = await addActiveDomain();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => api.post(`/domains/${domain.id}/emails`, { local_part: `p${i}`, is_primary: true })),
    );
    results.forEach((response) => expect(response.status).toBe(201));
    const list = await api.get(`/domains/${domain.id}/emails`);
    expect(list.body.data.filter((a: { is_primary: boolean }) => a.is_primary)).toHaveLength(1);
  });

  it('lists a domain\'s addresses with pagination', async () => {
    const domain = await addActiveDomain();
    for (const local_part of ['a1', 'a2', 'a3']) await api.post(`/domains/${domain.id}/emails`, { local_part });
    const page1 = await api.get(`/domains/${domain.id}/emails?limit=2`);
    expect(page1.status).toBe(200);
    expect(page1.body.pagination).toEqual({ page: 1, limit: 2, total: 3 });
    expect(page1.body.data.map((a: { address: string }) => a.address)).toEqual([`a1@${domain.name}`, `a2@${domain.name}`]);
    const page2 = await api.get(`/domains/${domain.id}/emails?page=2&limit=2`);
    expect(page2.body.data).toHaveLength(1);
    expect((await api.get(`/domains/${domain.id}/emails?limit=500`)).status).toBe(400);
  });

  it('removes the addresses with their domain, freeing the addresses for a new owner', async () => {
    const domain = await addActiveDomain();
    await api.post(`/domains/${domain.id}/emails`, { local_part: 'keep', is_primary: true });
    expect((await api.delete(`/domains/${domain.id}`)).status).toBe(200);
    expect((await api.get(`/domains/${domain.id}/emails`)).status).toBe(404);

    const newOwner = apiClient((await createTestOrg({ plan: 0, addons: ['domains'] })).key);
    const again = await newOwner.post('/domains', { domain: domain.name });
    expect(again.status).toBe(201);
    await publish(again.body.data.dns_records);
    expect((await newOwner.get(`/domains/${again.body.data.id}/verify`)).body.data.status).toBe('active');
    const recreated = await newOwner.post(`/domains/${again.body.data.id}/emails`, { local_part: 'keep', is_primary: true });
    expect(recreated.status).toBe(201);
    expect((await newOwner.get(`/domains/${again.body.data.id}/emails`)).body.pagination.total).toBe(1);
  });
});
