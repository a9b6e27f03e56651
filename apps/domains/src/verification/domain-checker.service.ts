import { Injectable } from '@nestjs/common';
import { counter } from '@platform/service';
import type { DomainEntity } from '../domain/domain.entity';
import { DomainsRepository } from '../domain/domains.repository';
import { MailHosts, requiredRecords } from '../domain/required-records';
import { DomainsConfig } from '../domains.config';
import type { RecheckPolicy } from '../recheck/recheck-schedule';
import { DnsLookupService } from './dns-lookup.service';
import { applyCheck } from './domain-check';
import { judgeRecords, RecordsVerdict } from './verification-rules';

const checksDone = counter('domain_checks_total', 'Domain DNS checks recorded, by who asked', ['trigger']);

export interface DomainToCheck {
  id: string;
  organizationId: string;
  domain: string;
  selectors: [string, string];
}

export interface CheckRecord {
  domain: DomainEntity;
  verdict: RecordsVerdict;
}

/**
 * One check of a domain, the same for a client's verify and the background re-check: live lookups
 * (bounded by DNS_LOOKUP_TIMEOUT_MS), the rules, then the new state and its event in one transaction.
 */
@Injectable()
export class DomainChecker {
  private readonly hosts: MailHosts;
  private readonly policy: RecheckPolicy;

  constructor(
    private readonly repository: DomainsRepository,
    private readonly dns: DnsLookupService,
    config: DomainsConfig,
  ) {
    this.hosts = mailHostsOf(config);
    this.policy = { scheduleMs: config.recheckScheduleMs, intervalMs: config.recheckIntervalMs, windowMs: config.verificationWindowMs };
  }

  /** Answers null when the domain went away meanwhile, or when a background claim was overtaken. */
  async check(target: DomainToCheck, claim?: Date): Promise<CheckRecord | null> {
    const required = requiredRecords(target.domain, target.selectors, this.hosts);
    const verdict = judgeRecords(required, await this.dns.observe(required));
    const now = new Date();
    const domain = await this.repository.saveCheck(target.organizationId, target.id, (current) => applyCheck(current, verdict, now, this.policy), claim);
    if (domain) checksDone.inc({ trigger: claim ? 'schedule' : 'client' });
    return domain && { domain, verdict };
  }

  /** When a new domain is first looked at by the background re-check. */
  firstCheckAt(createdAt: Date): Date {
    return new Date(createdAt.getTime() + this.policy.scheduleMs[0]);
  }
}

export function mailHostsOf(config: DomainsConfig): MailHosts {
  return { mxHost: config.MAIL_MX_HOST, spfInclude: config.MAIL_SPF_INCLUDE, dkimDomain: config.MAIL_DKIM_DOMAIN };
}
