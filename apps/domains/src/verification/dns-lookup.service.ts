import { Injectable } from '@nestjs/common';
import { promises as dns } from 'node:dns';
import { histogram } from '@platform/service';
import type { RequiredRecords } from '../domain/required-records';
import { DomainsConfig } from '../domains.config';
import type { DnsObservation, Lookup } from './dns-observation';

const lookupDuration = histogram('domain_dns_lookup_duration_seconds', 'Live DNS lookups of domain verification', ['record', 'outcome']);

const MISSING = new Set(['ENOTFOUND', 'ENODATA']);
// ECANCELLED is our own deadline cutting the lookups short.
const TIMED_OUT = new Set(['ETIMEOUT', 'ECANCELLED']);

async function capture(record: string, query: Promise<string[]>): Promise<Lookup> {
  const started = process.hrtime.bigint();
  let result: Lookup;
  try {
    result = { outcome: 'found', values: await query };
  } catch (error) {
    const code = String((error as { code?: unknown }).code ?? 'EUNKNOWN');
    result = MISSING.has(code) ? { outcome: 'missing' } : TIMED_OUT.has(code) ? { outcome: 'timeout' } : { outcome: 'error', code };
  }
  lookupDuration.observe({ record, outcome: result.outcome }, Number(process.hrtime.bigint() - started) / 1e9);
  return result;
}

/** Asks live DNS, all lookups at once, and never takes longer than DNS_LOOKUP_TIMEOUT_MS in total. */
@Injectable()
export class DnsLookupService {
  constructor(private readonly config: DomainsConfig) {}

  async observe(required: RequiredRecords): Promise<DnsObservation> {
    const budget = this.config.DNS_LOOKUP_TIMEOUT_MS;
    // c-ares doubles the timeout on its second try, so a third of the budget first leaves room for a retry.
    const resolver = new dns.Resolver({ timeout: Math.max(50, Math.floor(budget / 3)), tries: 2 });
    if (this.config.dnsServers.length > 0) resolver.setServers(this.config.dnsServers);
    const deadline = setTimeout(() => resolver.cancel(), budget);
    try {
      const texts = (name: string) => resolver.resolveTxt(name).then((records) => records.map((chunks) => chunks.join('')));
      const [mx, txt, dkim1, dkim2, dmarc] = await Promise.all([
        capture('mx', resolver.resolveMx(required.domain).then((records) => records.map((record) => record.exchange))),
        capture('txt', texts(required.domain)),
        capture('dkim', resolver.resolveCname(required.dkim[0].name)),
        capture('dkim', resolver.resolveCname(required.dkim[1].name)),
        capture('dmarc', texts(`_dmarc.${required.domain}`)),
      ]);
      return { mx, txt, dkim: [dkim1, dkim2], dmarc };
    } finally {
      clearTimeout(deadline);
    }
  }
}
