import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { gauge } from '@platform/service';
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
  private running = false;
  private loop?: Promise<void>;
  private wake?: () => void;

  constructor(
    private readonly repository: DomainsRepository,
    private readonly checker: DomainChecker,
    private readonly config: DomainsConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.running = true;
    this.loop = this.run();
  }

  /** Stops claiming, then lets the checks in flight finish (each is bounded by the lookup timeout) while the database is still open. */
  async beforeApplicationShutdown(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    await Promise.all(this.inFlight);
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (this.running) {
      const free = this.config.DOMAIN_RECHECK_CONCURRENCY - this.inFlight.size;
      if (free <= 0) {
        await this.pause(POLL_MS);
        continue;
      }
      try {
        const now = new Date();
        const claimed = await this.repository.claimDue(free, now, new Date(now.getTime() + this.config.DNS_LOOKUP_TIMEOUT_MS + CLAIM_MARGIN_MS));
        failures = 0;
        claimed.forEach((domain) => this.start(domain));
        if (claimed.length < free) await this.pause(POLL_MS);
      } catch (error) {
        failures += 1;
        this.logger.warn({ err: error }, 'claiming due domains failed; will retry');
        await this.pause(Math.min(30_000, POLL_MS * 2 ** Math.min(failures, 5)));
      }
    }
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
        this.wake?.();
      });
    this.inFlight.add(work);
    checksInFlight.set(this.inFlight.size);
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
