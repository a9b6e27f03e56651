import { promises as dns } from 'node:dns';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
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
  const quietly = (query: Promise<string[]>) =>
    query.catch((error: { code?: string }) => {
      if (error.code === 'ENODATA' || error.code === 'ENOTFOUND') return [] as string[];
      throw error;
    });
  return async (hostname) => {
    const [v4, v6] = await Promise.all([quietly(resolver.resolve4(hostname)), quietly(resolver.resolve6(hostname))]);
    return [...v4.map((address) => ({ address, family: 4 as const })), ...v6.map((address) => ({ address, family: 6 as const }))];
  };
}
