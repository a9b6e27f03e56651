import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { BackgroundLoop, gauge } from '@platform/service';
import { ClaimedDomain, DomainsRepository } from '../domain/domains.repository';
import { DomainsConfig } from '../domains.config';
import { DomainChecker } from '../verification/domain-checker.service';

/** How often an idle replica looks for due domains. */
const POLL_MS = 1_000;
/** A claim outlives the slowest check (lookups are cut at DNS_LOOKUP_TIMEOUT_MS) by far. */
const CLAIM_MARGIN_MS = 60_000;

const checksInFlight = gauge('domain_rechecks_in_flight', 'Background domain checks running in this process');

/**
 * Re-checks due domains in the background, in every replica. At most DOMAIN_RECHECK_CONCURRENCY checks
 * run at once, each taking its own slot: a name server that never answers holds one slot for the lookup
 * bound, while the others go on. Replicas claim due domains with SKIP LOCKED, so none is checked twice at once.
 */
@Injectable()
export class DomainRecheckJob implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('DomainRecheckJob');
  private readonly inFlight = new Set<Promise<void>>();
  private readonly loop = new BackgroundLoop(this.logger, () => this.claim(), { name: 'domain-rechecks', owner: 'domains', failure: 'claiming due domains failed', idleMs: POLL_MS, backoffMs: POLL_MS });

  constructor(
    private readonly repository: DomainsRepository,
    private readonly checker: DomainChecker,
    private readonly config: DomainsConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  /** Stops claiming, then lets the checks in flight finish (each is bounded by the lookup timeout) while the database is still open. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.loop.stop();
    await Promise.all(this.inFlight);
  }

  /** Claims as many due domains as there are free slots; answers whether every slot found one (more may be due). */
  private async claim(): Promise<boolean> {
    const free = this.config.DOMAIN_RECHECK_CONCURRENCY - this.inFlight.size;
    if (free <= 0) return false;
    const now = new Date();
    const claimed = await this.repository.claimDue(free, now, new Date(now.getTime() + this.config.DNS_LOOKUP_TIMEOUT_MS + CLAIM_MARGIN_MS));
    claimed.forEach((domain) => this.start(domain));
    return claimed.length === free;
  }

  private start(domain: ClaimedDomain): void {
    const work = this.checker
      .check(domain, domain.claim)
      .then(
        () => undefined,
        // The claim lapses and another pass takes the domain again; nothing is lost.
        (error: unknown) => this.logger.warn({ err: error, domainId: domain.id }, 'background domain check failed'),
      )
      .finally(() => {
        this.inFlight.delete(work);
        checksInFlight.set(this.inFlight.size);
        this.loop.wake();
      });
    this.inFlight.add(work);
    checksInFlight.set(this.inFlight.size);
  }
}
