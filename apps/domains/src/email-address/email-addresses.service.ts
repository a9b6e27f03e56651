import { Injectable } from '@nestjs/common';
import { EmailAddressView, OrgContext, pageOffset, ServiceResult } from '@contracts';
import { AppError, ErrorCode } from '@platform/errors';
import { conflictOnUniqueViolation, Database } from '@platform/persistence';
import { DomainsRepository } from '../domain/domains.repository';
import type { EmailAddressEntity } from './email-address.entity';
import { EmailAddressesRepository } from './email-addresses.repository';

export interface NewEmailAddress {
  /** A dot-atom, as the gateway checked it against CreateEmailAddressBody. */
  localPart: string;
  isPrimary: boolean;
}

function toView(address: EmailAddressEntity): EmailAddressView {
  return { id: address.id, address: address.address, is_primary: address.isPrimary, created_at: address.createdAt.toISOString() };
}

@Injectable()
export class EmailAddressesService {
  constructor(
    private readonly db: Database,
    private readonly domains: DomainsRepository,
    private readonly addresses: EmailAddressesRepository,
  ) {}

  async list(org: OrgContext, domainId: string, page: { page: number; limit: number }): Promise<ServiceResult<EmailAddressView[]>> {
    if (!(await this.domains.findOne(org.id, domainId))) throw AppError.notFound('Domain');
    const [addresses, total] = await this.addresses.page(org.id, domainId, pageOffset(page), page.limit);
    return { data: addresses.map(toView), pagination: { page: page.page, limit: page.limit, total } };
  }

  /** Locks the domain row so that concurrent primaries on one domain take turns: one primary at a time. */
  async create(org: OrgContext, domainId: string, input: NewEmailAddress): Promise<ServiceResult<EmailAddressView>> {
    const localPart = input.localPart.toLowerCase();
    const { isPrimary } = input;
    const created = await conflictOnUniqueViolation(
      () =>
        this.db.transaction(async (tx) => {
          const domain = await this.domains.findOne(org.id, domainId, tx, true);
          if (!domain) throw AppError.notFound('Domain');
          if (domain.status !== 'active') {
            throw new AppError(ErrorCode.DomainNotVerified, `The domain ${domain.domain} is ${domain.status}: verify its DNS records first`);
          }
          if (isPrimary) await this.addresses.clearPrimary(tx, domainId);
          return this.addresses.insert(tx, { organizationId: org.id, domainId, localPart, address: `${localPart}@${domain.domain}`, isPrimary });
        }),
      'This email address already exists',
    );
    return { data: toView(created) };
  }
}
