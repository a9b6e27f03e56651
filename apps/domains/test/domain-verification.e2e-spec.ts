import { ApiClient, apiClient, createTestOrg, eventually, setTestDnsRecords } from '@platform/testing';
import { ageDomain, blackholeDomain, DnsRecordView, makeDue, publish, uniqueDomain, unpublishAll } from './dns-fixtures';

/** Nothing publishes DMARC for these domains, so every check recommends it, after the problems. */
const DMARC_ADVICE = expect.stringMatching(/^Recommended: no DMARC record at _dmarc\..*: add a TXT record such as "v=DMARC1; p=none"/);

interface Added {
  id: string;
  records: DnsRecordView[];
}

describe('domain verification against the loopback DNS server', () => {
  let api: ApiClient;

  beforeAll(async () => {
    api = apiClient((await createTestOrg({ plan: 0, addons: ['domains'] })).key);
  });

  afterAll(() => unpublishAll());

  async function add(domain = uniqueDomain()): Promise<Added> {
    const response = await api.post('/domains', { domain });
    expect(response.status).toBe(201);
    return { id: response.body.data.id, records: response.body.data.dns_records };
  }

  async function verify(id: string) {
    const response = await api.get(`/domains/${id}/verify`);
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    return response.body.data;
  }

  it('activates a domain whose four records are right', async () => {
    const domain = await add();
    await publish(domain.records);
    const result = await verify(domain.id);
    expect(result).toMatchObject({
      id: domain.id,
      mx_verified: true,
      spf_verified: true,
      dkim_verified: true,
      all_verified: true,
      dns_configured: true,
      status: 'active',
      verified_at: expect.stringMatching(/Z$/),
    });
    expect(result.issues).toBeUndefined();
    const read = (await api.get(`/domains/${domain.id}`)).body.data;
    expect(read).toMatchObject({ status: 'active', mx_verified: true, spf_verified: true, dkim_verified: true, dns_configured: true, verified_at: result.verified_at });
    // The DMARC recommendation stays in the latest check's issues without keeping the domain from active.
    expect(read.issues).toEqual([DMARC_ADVICE]);
    expect(Date.parse(read.last_checked_at)).toBeGreaterThanOrEqual(Date.parse(result.verified_at));
  });

  it('shows no check before the first one, and drops the DMARC advice once a DMARC record exists', async () => {
    const domain = await add();
    expect((await api.get(`/domains/${domain.id}`)).body.data).toMatchObject({ last_checked_at: null, issues: [] });
    await publish(domain.records);
    await setTestDnsRecords(`_dmarc.${domain.records[0].name}`, [{ type: 'TXT', value: 'v=DMARC1; p=quarantine' }]);
    expect((await verify(domain.id)).status).toBe('active');
    const read = (await api.get(`/domains/${domain.id}`)).body.data;
    expect(read).toMatchObject({ status: 'active', issues: [], last_checked_at: expect.stringMatching(/Z$/) });
  });

  it('names every missing record when nothing is published, and stays pending', async () => {
    const domain = await add();
    const result = await verify(domain.id);
    expect(result).toMatchObject({ mx_verified: false, spf_verified: false, dkim_verified: false, all_verified: false, dns_configured: false, status: 'pending' });
    expect(result.issues).toEqual([
      expect.stringMatching(/^Missing MX record at .*: add an MX record .* mx\.mail\.example\.net with priority 10\.$/),
      expect.stringMatching(/^Missing SPF record at .*: add a TXT record "v=spf1 include:spf\.mail\.example\.net ~all"\.$/),
      `Missing DKIM CNAME record at ${domain.records[2].name}: add a CNAME pointing to ${domain.records[2].value}.`,
      `Missing DKIM CNAME record at ${domain.records[3].name}: add a CNAME pointing to ${domain.records[3].value}.`,
      DMARC_ADVICE
    ]);
  });

  it('flags only the MX record when it alone is missing', async () => {
    const domain = await add();
    await publish(domain.records, { mx: [] });
    const result = await verify(domain.id);
    expect(result).toMatchObject({ mx_verified: false, spf_verified: true, dkim_verified: true, all_verified: false, dns_configured: true, status: 'pending' });
    expect(result.issues).toEqual([expect.stringMatching(/^Missing MX record/), DMARC_ADVICE]);
  });

  it('flags only SPF when the TXT record is missing', async () => {
    const domain = await add();
    await publish(domain.records, { txt: [{ type: 'TXT', value: 'google-site-verification=abc123' }] });
    const result = await verify(domain.id);
    expect(result).toMatchObject({ mx_verified: true, spf_verified: false, dkim_verified: true, all_verified: false });
    expect(result.issues).toEqual([expect.stringMatching(/^Missing SPF record/), DMARC_ADVICE]);
  });

  it('flags DKIM when one of the two CNAMEs is missing', async () => {
    const domain = await add();
    await publish(domain.records, { dkim: [[{ type: 'CNAME', target: domain.records[2].value }], []] });
    const result = await verify(domain.id);
    expect(result).toMatchObject({ mx_verified: true, spf_verified: true, dkim_verified: false, all_verified: false });
    expect(result.issues).toEqual([`Missing DKIM CNAME record at ${domain.records[3].name}: add a CNAME pointing to ${domain.records[3].value}.`, DMARC_ADVICE]);
  });

  it('explains wrong values: another MX host, SPF without our include, a wrong CNAME target', async () => {
    const domain = await add();
    await publish(domain.records, {
      mx: [{ type: 'MX', exchange: 'aspmx.l.google.com', priority: 1 }],
      txt: [{ type: 'TXT', value: 'v=spf1 include:_spf.google.com ~all' }],
      dkim: [[{ type: 'CNAME', target: 'google._domainkey.example.org' }], [{ type: 'CNAME', target: domain.records[3].value }]],
    });
    const result = await verify(domain.id);
    expect(result).toMatchObject({ mx_verified: false, spf_verified: false, dkim_verified: false, all_verified: false, dns_configured: true });
    expect(result.issues).toEqual([
      expect.stringMatching(/^Conflicting MX host aspmx\.l\.google\.com at .*: remove that MX record/),
      expect.stringMatching(/^The MX records at .* do not point to mx\.mail\.example\.net: add an MX record/),
      expect.stringMatching(/^The SPF record at .* does not include spf\.mail\.example\.net: add "include:spf\.mail\.example\.net"/),
      `Wrong CNAME target at ${domain.records[2].name}: it points to google._domainkey.example.org; change it to point to ${domain.records[2].value}.`,
      DMARC_ADVICE
    ]);
  });

  it('refuses two SPF records, even when one carries our include', async () => {
    const domain = await add();
    await publish(domain.records, {
      txt: [
        { type: 'TXT', value: 'v=spf1 include:spf.mail.example.net ~all' },
        { type: 'TXT', value: 'v=spf1 include:_spf.google.com ~all' },
      ],
    });
    const result = await verify(domain.id);
    expect(result).toMatchObject({ mx_verified: true, spf_verified: false, dkim_verified: true, all_verified: false, status: 'pending' });
    expect(result.issues).toEqual([expect.stringMatching(/^Found 2 SPF records at .*, but only one is allowed: merge them/), DMARC_ADVICE]);
  });

  it('accepts one SPF record that merges other includes with ours, split in character strings', async () => {
    const domain = await add();
    await publish(domain.records, {
      txt: [
        { type: 'TXT', value: ['v=spf1 include:_spf.google.com ip4:192.0.2.0/24 ', 'include:spf.mail.example.net -all'] },
        { type: 'TXT', value: 'some-other-verification=xyz' },
      ],
    });
    const result = await verify(domain.id);
    expect(result).toMatchObject({ spf_verified: true, all_verified: true, status: 'active' });
  });

  it('refuses an extra MX host next to ours', async () => {
    const domain = await add();
    await publish(domain.records, {
      mx: [
        { type: 'MX', exchange: 'mx.mail.example.net', priority: 10 },
        { type: 'MX', exchange: 'backup-mx.example.org', priority: 20 },
      ],
    });
    const result = await verify(domain.id);
    expect(result).toMatchObject({ mx_verified: false, spf_verified: true, dkim_verified: true, all_verified: false, status: 'pending' });
    expect(result.issues).toEqual([expect.stringMatching(/^Conflicting MX host backup-mx\.example\.org at .*: remove that MX record so that mail goes only to mx\.mail\.example\.net\.$/), DMARC_ADVICE]);
  });

  it('reports a name server that never answers as timed out, within the lookup bound, never a 500', async () => {
    const domain = await add(blackholeDomain());
    const started = Date.now();
    const result = await verify(domain.id);
    const elapsed = Date.now() - started;
    expect(result).toMatchObject({ mx_verified: false, spf_verified: false, dkim_verified: false, all_verified: false, status: 'pending' });
    expect(result.issues).toHaveLength(4);
    result.issues.forEach((issue: string) => expect(issue).toMatch(/lookup timed out/));
    // DNS_LOOKUP_TIMEOUT_MS is 1000 in the test stack; lookups run in parallel, so the whole verify stays close to it.
    expect(elapsed).toBeLessThan(3_000);
  });

  it('fails a domain left pending past the window, then recovers it to active once DNS is right', async () => {
    const domain = await add();
    await ageDomain(domain.id, 73);
    await publish(domain.records, { mx: [] });
    const failed = await verify(domain.id);
    expect(failed).toMatchObject({ status: 'failed', all_verified: false, verified_at: null });
    expect((await api.get(`/domains/${domain.id}`)).body.data.status).toBe('failed');
    const again = await verify(domain.id);
    expect(again.status).toBe('failed');

    await publish(domain.records);
    const recovered = await verify(domain.id);
    expect(recovered).toMatchObject({ status: 'active', all_verified: true, verified_at: expect.stringMatching(/Z$/) });
  });

  it('keeps a pending domain inside the window pending', async () => {
    const domain = await add();
    await ageDomain(domain.id, 71);
    expect((await verify(domain.id)).status).toBe('pending');
  });

  it('fails a domain past the window in the background, before anyone verifies it', async () => {
    const domain = await add();
    await ageDomain(domain.id, 80);
    await makeDue(domain.id);
    await eventually(async () => expect((await api.get(`/domains/${domain.id}`)).body.data.status).toBe('failed'));
    const listed = await api.get('/domains?limit=100');
    expect(listed.body.data.find((d: { id: string }) => d.id === domain.id)).toMatchObject({
      status: 'failed',
      last_checked_at: expect.stringMatching(/Z$/),
      issues: expect.arrayContaining([expect.stringMatching(/^Missing MX record/)]),
    });
  });

  it('activates a domain past the window that verifies on its first check', async () => {
    const domain = await add();
    await ageDomain(domain.id, 100);
    await publish(domain.records);
    expect((await verify(domain.id)).status).toBe('active');
  });

  it('keeps an active domain active when its records later break, with the flags telling the truth', async () => {
    const domain = await add();
    await publish(domain.records);
    const first = await verify(domain.id);
    expect(first.status).toBe('active');
    await publish(domain.records, { txt: [] });
    const later = await verify(domain.id);
    expect(later).toMatchObject({ status: 'active', spf_verified: false, all_verified: false, verified_at: first.verified_at, dns_configured: true });
  });
});
