import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DOT_ATOM, EmailAddressView, OrgContext, pageOffset, ServiceResult } from '@contracts';
import { AppError, ErrorCode } from '@platform/errors';
import { DataSource, EntityManager } from 'typeorm';
import { DomainEntity } from '../domain/domain.entity';
import { isUniqueViolation } from '../domain/resource-id';
import { EmailAddressEntity } from './email-address.entity';

export interface NewEmailAddress {
  localPart: unknown;
  isPrimary: unknown;
}

function toView(address: EmailAddressEntity): EmailAddressView {
  return { id: address.id, address: address.address, is_primary: address.isPrimary, created_at: address.createdAt.toISOString() };
}

function normalizeLocalPart(value: unknown): string {
  if (typeof value !== 'string') throw AppError.validation('local_part', 'must be a string');
  if (value.length < 1 || value.length > 64) throw AppError.validation('local_part', 'must be 1..64 characters');
  if (!DOT_ATOM.test(value)) throw AppError.validation('local_part', 'must be a dot-atom');
  return value.toLowerCase();
}

@Injectable()
export class EmailAddressesService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async list(org: OrgContext, domainId: string, page: { page: number; limit: number }): Promise<ServiceResult<EmailAddressView[]>> {
    await this.findDomain(this.db.manager, org, domainId);
    const [addresses, total] = await this.db.getRepository(EmailAddressEntity).findAndCount({
      where: { organizationId: org.id, domainId },
      order: { createdAt: 'ASC', id: 'ASC' },
      skip: pageOffset(page),
      take: page.limit,
    });
    return { data: addresses.map(toView), pagination: { page: page.page, limit: page.limit, total } };
  }

  /** Locks the domain row so that concurrent primaries on one domain take turns: one primary at a time. */
  async create(org: OrgContext, domainId: string, input: NewEmailAddress): Promise<ServiceResult<EmailAddressView>> {
    const localPart = normalizeLocalPart(input.localPart);
    if (input.isPrimary !== undefined && typeof input.isPrimary !== 'boolean') throw AppError.validation('is_primary', 'must be a boolean');
    const isPrimary = input.isPrimary === true;
    try {
      const created = await this.db.transaction(async (manager) => {
        const domain = await this.findDomain(manager, org, domainId, true);
        if (domain.status !== 'active') {
          throw new AppError(ErrorCode.DomainNotVerified, `The domain ${domain.domain} is ${domain.status}: verify its DNS records first`);
        }
        const addresses = manager.getRepository(EmailAddressEntity);
        if (isPrimary) await addresses.update({ domainId, isPrimary: true }, { isPrimary: false });
        return addresses.save(
          addresses.create({ organizationId: org.id, domainId, localPart, address: `${localPart}@${domain.domain}`, isPrimary }),
        );
      });
      return { data: toView(created) };
    } catch (error) {
      if (isUniqueViolation(error)) throw AppError.conflict('This email address already exists');
      throw error;
    }
  }

  private async findDomain(manager: EntityManager, org: OrgContext, id: string, lock = false): Promise<DomainEntity> {
    const domain = await manager.getRepository(DomainEntity).findOne({
      where: { organizationId: org.id, id },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    if (!domain) throw AppError.notFound('Domain');
    return domain;
  }
}
