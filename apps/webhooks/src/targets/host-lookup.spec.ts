import { ARecordDns } from '../../test/a-record-dns';
import { keptLookup, serverLookup } from './host-lookup';
import { TargetRefusedError, TargetResolver } from './target-resolver';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('keptLookup against a DNS server', () => {
  let dns: ARecordDns;
  // A and AAAA: each lookup of a name asks the server twice.
  const lookups = (name: string) => (dns.queries.get(name) ?? 0) / 2;
  const kept = (keepMs: number) => keptLookup(serverLookup([dns.servers]), keepMs);
  /** Looks `name` up twice in a row; answers how many lookups reached the server so far. */
  const twice = async (lookup: ReturnType<typeof keptLookup>, name: string) => {
    await lookup(name);
    await lookup(name);
    return lookups(name);
  };

  beforeAll(async () => {
    dns = await ARecordDns.start({
      'kept.example.test': { a: ['93.184.216.34'], ttl: 60 },
      'short.example.test': { a: ['93.184.216.34'], ttl: 1 },
      'uncached.example.test': { a: ['93.184.216.34'], ttl: 0 },
      'internal.example.test': { a: ['127.0.0.1'], ttl: 60 },
      'asked.example.test': { a: ['93.184.216.34'], ttl: 60 },
    });
  });

  afterAll(() => dns.close());

  it('resolves a host once for the asks that come together and again only after the time it keeps answers', async () => {
    const lookup = kept(300);
    const answers = await Promise.all(Array.from({ length: 20 }, () => lookup('kept.example.test')));
    expect(answers.every((addresses) => addresses[0]?.address === '93.184.216.34')).toBe(true);
    expect(lookups('kept.example.test')).toBe(1);
    await lookup('KEPT.example.test');
    expect(lookups('kept.example.test')).toBe(1);
    dns.set('kept.example.test', { a: ['93.184.216.35'], ttl: 60 });
    await sleep(400);
    expect((await lookup('kept.example.test'))[0].address).toBe('93.184.216.35');
    expect(lookups('kept.example.test')).toBe(2);
  });

  it("keeps an answer no longer than its records' TTL, and not at all for a TTL of 0", async () => {
    const lookup = kept(60_000);
    expect(await twice(lookup, 'short.example.test')).toBe(1);
    await sleep(1_100);
    await lookup('short.example.test');
    expect(lookups('short.example.test')).toBe(2);
    await lookup('uncached.example.test');
    await sleep(5);
    await lookup('uncached.example.test');
    expect(lookups('uncached.example.test')).toBe(2);
  });

  it('asks again for a name that did not resolve', async () => {
    const lookup = kept(60_000);
    expect(await lookup('later.example.test')).toEqual([]);
    dns.set('later.example.test', { a: ['93.184.216.36'], ttl: 60 });
    expect((await lookup('later.example.test'))[0].address).toBe('93.184.216.36');
    expect(lookups('later.example.test')).toBe(2);
  });

  it('keeps nothing when told 0', async () => {
    expect(await twice(kept(0), 'asked.example.test')).toBe(2);
  });

  it('judges a kept answer every time: a host that resolves to a blocked address stays refused', async () => {
    const resolver = new TargetResolver(false, kept(60_000));
    for (let i = 0; i < 3; i += 1) {
      await expect(resolver.resolve(new URL('http://internal.example.test/hook'))).rejects.toBeInstanceOf(TargetRefusedError);
    }
    expect(lookups('internal.example.test')).toBe(1);
  });
});
