import type { LookupFunction } from 'node:net';
import { LRUCache } from 'lru-cache';
import { Agent } from 'undici';
import type { ResolvedAddress } from '../targets/target-resolver';

/** Answers every lookup with the one address that was checked, in whichever form net asks for. */
function pinnedLookup({ address, family }: ResolvedAddress): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as LookupFunction;
}

/**
 * Keep-alive HTTP agents, one per origin and checked address. Each connects only to its address (the
 * host name still goes out as Host and TLS SNI), so connections are reused without ever reaching an
 * address that was not checked.
 */
export class PinnedAgents {
  private readonly agents = new LRUCache<string, Agent>({
    max: 500,
    dispose: (agent) => void agent.close().catch(() => undefined),
  });

  constructor(private readonly connectTimeoutMs: number) {}

  for(origin: string, target: ResolvedAddress): Agent {
    const key = `${origin}|${target.address}`;
    let agent = this.agents.get(key);
    if (!agent) {
      agent = new Agent({
        connect: { lookup: pinnedLookup(target), timeout: this.connectTimeoutMs },
        keepAliveTimeout: 10_000,
        pipelining: 1,
      });
      this.agents.set(key, agent);
    }
    return agent;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.close();
  }

  async close(): Promise<void> {
    const agents = [...this.agents.values()];
    this.agents.clear();
    await Promise.all(agents.map((agent) => agent.close().catch(() => undefined)));
  }
}
