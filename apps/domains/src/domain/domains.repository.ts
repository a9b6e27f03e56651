import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThan, Repository } from 'typeorm';
import { DomainEntity } from './domain.entity';

/** Every query is scoped by organization: another organization's domain does not exist for the caller. */
@Injectable()
export class DomainsRepository {
  constructor(@InjectRepository(DomainEntity) private readonly domains: Repository<DomainEntity>) {}

  findOne(organizationId: string, id: string): Promise<DomainEntity | null> {
    return this.domains.findOneBy({ organizationId, id });
  }

  page(organizationId: string, offset: number, limit: number): Promise<[DomainEntity[], number]> {
    return this.domains.findAndCount({ where: { organizationId }, order: { createdAt: 'ASC', id: 'ASC' }, skip: offset, take: limit });
  }

  insert(values: Pick<DomainEntity, 'organizationId' | 'domain' | 'dkimSelector1' | 'dkimSelector2'>): Promise<DomainEntity> {
    return this.domains.save(
      this.domains.create({
        ...values,
        status: 'pending',
        type: 'imported',
        dnsConfigured: false,
        mxVerified: false,
        spfVerified: false,
        dkimVerified: false,
        verifiedAt: null,
        checkedAt: null,
      }),
    );
  }

  async update(domain: DomainEntity, changes: Partial<DomainEntity>): Promise<DomainEntity> {
    await this.domains.update({ id: domain.id, organizationId: domain.organizationId }, changes);
    return Object.assign(domain, changes);
  }

  /** Pending domains whose window has closed are failed whether or not anyone asked to verify them. */
  async failExpired(organizationId: string, createdBefore: Date): Promise<void> {
    await this.domains.update({ organizationId, status: 'pending', createdAt: LessThan(createdBefore) }, { status: 'failed' });
  }

  /** Addresses go with the domain (ON DELETE CASCADE). */
  async delete(organizationId: string, id: string): Promise<boolean> {
    const result = await this.domains.delete({ organizationId, id });
    return (result.affected ?? 0) > 0;
  }
}
