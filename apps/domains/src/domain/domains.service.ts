import { Injectable } from '@nestjs/common';
import { DomainVerification, DomainView, OrgContext, pageOffset, ServiceResult } from '@contracts';
import { AppError } from '@platform/errors';
import { conflictOnUniqueViolation } from '@platform/persistence';
import { DomainsConfig } from '../domains.config';
import { DomainChecker, mailHostsOf } from '../verification/domain-checker.service';
import type { DomainEntity } from './domain.entity';
import { toDomainView } from './domain.view';
import { DomainsRepository } from './domains.repository';
import { normalizeHostname } from './hostname';
import { dnsRecordsOf, MailHosts, newDkimSelectors, RequiredRecords, requiredRecords } from './required-records';

// Room for `<selector>._domainkey.` in front of the domain within DNS's 253 characters.
const MAX_DOMAIN_LENGTH = 253 - '._domainkey.'.length - 13;

@Injectable()
export class DomainsService {
  private readonly hosts: MailHosts;

  constructor(
    private readonly repository: DomainsRepository,
    private readonly checker: DomainChecker,
    config: DomainsConfig,
  ) {
    this.hosts = mailHostsOf(config);
  }

  async list(org: OrgContext, page: { page: number; limit: number }): Promise<ServiceResult<DomainView[]>> {
    const [domains, total] = await this.repository.page(org.id, pageOffset(page), page.limit);
    return { data: domains.map((domain) => toDomainView(domain)), pagination: { page: page.page, limit: page.limit, total } };
  }

  async get(org: OrgContext, id: string): Promise<ServiceResult<DomainView>> {
    const domain = await this.find(org, id);
    return { data: toDomainView(domain, dnsRecordsOf(this.required(domain))) };
  }

  async create(org: OrgContext, input: string): Promise<ServiceResult<DomainView>> {
    const check = normalizeHostname(input, MAX_DOMAIN_LENGTH);
    if (!check.ok) throw AppError.validation('domain', check.reason);
    const [dkimSelector1, dkimSelector2] = newDkimSelectors();
    const createdAt = new Date();
    const domain = await conflictOnUniqueViolation(
      () =>
        this.repository.insert({
          organizationId: org.id,
          domain: check.hostname,
          dkimSelector1,
          dkimSelector2,
          createdAt,
          nextCheckAt: this.checker.firstCheckAt(createdAt),
        }),
      `The domain ${check.hostname} is already connected`,
    );
    return { data: toDomainView(domain, dnsRecordsOf(this.required(domain))) };
  }

  /** Live lookups, then the contract's status rules; DNS trouble becomes issues, never an error. */
  async verify(org: OrgContext, id: string): Promise<ServiceResult<DomainVerification>> {
    const found = await this.find(org, id);
    const checked = await this.checker.check({
      id: found.id,
      organizationId: found.organizationId,
      domain: found.domain,
      selectors: [found.dkimSelector1, found.dkimSelector2],
    });
    if (!checked) throw AppError.notFound('Domain');
    const { domain, verdict } = checked;
    const data: DomainVerification = {
      id: domain.id,
      domain: domain.domain,
      status: domain.status,
      dns_configured: domain.dnsConfigured,
      mx_verified: domain.mxVerified,
      spf_verified: domain.spfVerified,
      dkim_verified: domain.dkimVerified,
      all_verified: verdict.allVerified,
      verified_at: domain.verifiedAt ? domain.verifiedAt.toISOString() : null,
    };
    return { data: verdict.allVerified ? data : { ...data, issues: domain.issues } };
  }

  async remove(org: OrgContext, id: string): Promise<ServiceResult<never>> {
    if (!(await this.repository.delete(org.id, id))) throw AppError.notFound('Domain');
    return { message: 'Domain deleted; its email addresses were removed' };
  }

  private async find(org: OrgContext, id: string): Promise<DomainEntity> {
    const domain = await this.repository.findOne(org.id, id);
    if (!domain) throw AppError.notFound('Domain');
    return domain;
  }

  private required(domain: DomainEntity): RequiredRecords {
    return requiredRecords(domain.domain, [domain.dkimSelector1, domain.dkimSelector2], this.hosts);
  }
}
