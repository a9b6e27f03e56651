import { dnsRecordsOf, newDkimSelectors, requiredRecords } from './required-records';

describe('required records', () => {
  it('lists MX, SPF and two DKIM CNAMEs with fully qualified names', () => {
    const required = requiredRecords('example.com', ['ka', 'kb'], { mxHost: 'mx.m.net', spfInclude: 'spf.m.net', dkimDomain: 'dkim.m.net' });
    expect(dnsRecordsOf(required)).toEqual([
      { type: 'MX', name: 'example.com', value: 'mx.m.net', priority: 10 },
      { type: 'TXT', name: 'example.com', value: 'v=spf1 include:spf.m.net ~all' },
      { type: 'CNAME', name: 'ka._domainkey.example.com', value: 'ka.dkim.m.net' },
      { type: 'CNAME', name: 'kb._domainkey.example.com', value: 'kb.dkim.m.net' },
    ]);
  });

  it('draws two distinct DNS-safe selectors, different each time', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const [a, b] = newDkimSelectors();
      expect(a).not.toBe(b);
      expect(a).toMatch(/^k[0-9a-f]{12}$/);
      seen.add(a).add(b);
    }
    expect(seen.size).toBe(400);
  });
});
