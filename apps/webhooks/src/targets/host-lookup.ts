import { promises as dns } from 'node:dns';
import { LRUCache } from 'lru-cache';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
  /** How long the record may be kept, when the answer says (a DNS server's does, the system resolver's does not). */
  ttlSeconds?: number;
}

/** Resolves a host name to all its addresses. */
export type HostLookup = (hostname: string) => Promise<ResolvedAddress[]>;

/** The system resolver (hosts file included), as an HTTP client would see it. */
export const systemLookup: HostLookup = async (hostname) =>
  (await dns.lookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));

/** A and AAAA records from the given DNS servers (`ip:port` each), for setups that name their own resolvers. */
export function serverLookup(servers: string[], timeoutMs = 5_000): HostLookup {
  const resolver = new dns.Resolver({ timeout: timeoutMs, tries: 1 });
  resolver.setServers(servers);
  const quietly = (query: Promise<Array<{ address: string; ttl: number }>>) =>
    query.catch((error: { code?: string }) => {
      if (error.code === 'ENODATA' || error.code === 'ENOTFOUND') return [];
      throw error;
    });
  return async (hostname) => {
    const [v4, v6] = await Promise.all([quietly(resolver.resolve4(hostname, { ttl: true })), quietly(resolver.resolve6(hostname, { ttl: true }))]);
    return [
      ...v4.map(({ address, ttl }) => ({ address, family: 4 as const, ttlSeconds: ttl })),
      ...v6.map(({ address, ttl }) => ({ address, family: 6 as const, ttlSeconds: ttl })),
    ];
  };
}

/** Host names whose answers one process keeps at most; past it the least recently asked goes first. */
const HOSTS_KEPT = 10_000;

/**
 * `lookup` with its answers kept for at most `keepMs` (and no longer than the records' own TTL, when the
 * answer gives one): a delivery worker asks for its receivers' hosts on every attempt, and without this
 * each attempt paid a resolver round trip (a system lookup runs on libuv's four threads, and in a pod it
 * may try every search domain first). Concurrent asks for one host share one lookup. A name that does not
 * resolve, or a lookup that fails, is not kept: the next attempt asks again. 0 keeps nothing.
 */
export function keptLookup(lookup: HostLookup, keepMs: number): HostLookup {
  if (keepMs <= 0) return lookup;
  const answers = new LRUCache<string, ResolvedAddress[]>({
    max: HOSTS_KEPT,
    ttl: keepMs,
    fetchMethod: async (hostname, _stale, { options }) => {
      const addresses = await lookup(hostname);
      if (addresses.length === 0) return undefined;
      const recordsMs = Math.min(...addresses.map((address) => (address.ttlSeconds ?? Infinity) * 1000));
      // A TTL of 0 says not to keep it (lru-cache reads 0 as forever): it serves the asks already waiting only.
      options.ttl = Math.max(1, Math.min(keepMs, recordsMs));
      return addresses;
    },
  });
  return async (hostname) => (await answers.fetch(hostname.toLowerCase())) ?? [];
}
