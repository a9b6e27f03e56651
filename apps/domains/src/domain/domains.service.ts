import { Injectable } from '@nestjs/common';
import { DomainVerification, DomainView, OrgContext, pageOffset, ServiceResult } from '@contracts';
import { AppError } from '@platform/errors';
import { DomainsConfig } from '../domains.config';
import { DnsLookupService } from '../verification/dns-lookup.service';
import { nextStatus } from '../verification/domain-status';
import { judgeRecords } from '../verification/verification-rules';
import type { DomainEntity } from './domain.entity';
import { toDomainView } from './domain.view';
import { DomainsRepository } from './domains.repository';
import { normalizeHostname } from './hostname';
import { dnsRecordsOf, MailHosts, newDkimSelectors, RequiredRecords, requiredRecords } from './required-records';
import { isUniqueViolation } from './resource-id';

// Room for `<selector>._domainkey.` in front of the domain within DNS's 253 characters.
const MAX_DOMAIN_LENGTH = 253 - '._domainkey.'.length - 13;

@Injectable()
export class DomainsService {
  private readonly hosts: MailHosts;

  constructor(
    private readonly repository: DomainsRepository,
    private readonly dns: DnsLookupService,
    private readonly config: DomainsConfig,
  ) {
    this.hosts = { mxHost: config.MAIL_MX_HOST, spfInclude: config.MAIL_SPF_INCLUDE, dkimDomain: config.MAIL_DKIM_DOMAIN };
  }

  async list(org: OrgContext, page: { page: number; limit: number }): Promise<ServiceResult<DomainView[]>> {
    await this.failExpired(org);
    const [domains, total] = await this.repository.page(org.id, pageOffset(page), page.limit);
    return { data: domains.map((domain) => toDomainView(domain)), pagination: { page: page.page, limit: page.limit, total } };
  }

  async get(org: OrgContext, id: string): Promise<ServiceResult<DomainView>> {
    await this.failExpired(org);
    const domain = await this.find(org, id);
    return { data: toDomainView(domain, dnsRecordsOf(this.required(domain))) };
  }

  async create(org: OrgContext, input: unknown): Promise<ServiceResult<DomainView>> {
    if (typeof input !== 'string') throw AppError.validation('domain', 'must be a string');
    const check = normalizeHostname(input, MAX_DOMAIN_LENGTH);
    if (!check.ok) throw AppError.validation('domain', check.reason);
    const [dkimSelector1, dkimSelector2] = newDkimSelectors();
    try {
      const domain = await this.repository.insert({ organizationId: org.id, domain: check.hostname, dkimSelector1, dkimSelector2 });
      return { data: toDomainView(domain, dnsRecordsOf(this.required(domain))) };
    } catch (error) {
      if (isUniqueViolation(error)) throw AppError.conflict(`The domain ${check.hostname} is already connected`);
      throw error;
    }
  }

  /** Live lookups, then the contract's status rules; DNS trouble becomes issues, never an error. */
  async verify(org: OrgContext, id: string): Promise<ServiceResult<DomainVerification>> {
    const domain = await this.find(org, id);
    const observed = await this.dns.observe(this.required(domain));
    const verdict = judgeRecords(this.required(domain), observed);
    const now = new Date();
    const next = nextStatus(domain, verdict.allVerified, now, this.config.verificationWindowMs);
    const updated = await this.repository.update(domain, {
      status: next.status,
      verifiedAt: next.verifiedAt,
      mxVerified: verdict.mxVerified,
      spfVerified: verdict.spfVerified,
      dkimVerified: verdict.dkimVerified,
      dnsConfigured: domain.dnsConfigured || verdict.anyRecordSeen,
      checkedAt: now,
    });
    const data: DomainVerification = {
      id: updated.id,
      domain: updated.domain,
      status: updated.status,
      dns_configured: updated.dnsConfigured,
      mx_verified: verdict.mxVerified,
      spf_verified: verdict.spfVerified,
      dkim_verified: verdict.dkimVerified,
      all_verified: verdict.allVerified,
      verified_at: updated.verifiedAt ? updated.verifiedAt.toISOString() : null,
    };
    return { data: verdict.issues.length > 0 ? { ...data, issues: verdict.issues } : data };
  }

  async remove(org: OrgContext, id: string): Promise<ServiceResult> {
    if (!(await this.repository.delete(org.id, id))) throw AppError.notFound('Domain');
    return { message: 'Domain deleted; its email addresses were removed' };
  }

  private async find(org: OrgContext, id: string): Promise<DomainEntity> {
    const domain = await this.repository.findOne(org.id, id);
    if (!domain) throw AppError.notFound('Domain');
    return domain;
  }

  private failExpired(org: OrgContext): Promise<void> {
    return this.repository.failExpired(org.id, new Date(Date.now() - this.config.verificationWindowMs));
  }

  private required(domain: DomainEntity): RequiredRecords {
    return requiredRecords(domain.domain, [domain.dkimSelector1, domain.dkimSelector2], this.hosts);
  }
}
