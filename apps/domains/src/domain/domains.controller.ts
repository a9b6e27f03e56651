import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { CreateDomainBody, DomainIdParams, DomainsPatterns, OrgContext, PageQuery, ServiceResult } from '@contracts';
import { Org, Params } from '@platform/messaging';
import { DomainsService } from './domains.service';

@Controller()
export class DomainsController {
  constructor(private readonly domains: DomainsService) {}

  @MessagePattern(DomainsPatterns.list)
  async list(@Org() org: OrgContext, @Params() params: PageQuery): Promise<ServiceResult> {
    return this.domains.list(org, params);
  }

  @MessagePattern(DomainsPatterns.get)
  async get(@Org() org: OrgContext, @Params() params: DomainIdParams): Promise<ServiceResult> {
    return this.domains.get(org, params.domainId);
  }

  @MessagePattern(DomainsPatterns.create)
  async create(@Org() org: OrgContext, @Params() params: CreateDomainBody): Promise<ServiceResult> {
    return this.domains.create(org, params.domain);
  }

  @MessagePattern(DomainsPatterns.verify)
  async verify(@Org() org: OrgContext, @Params() params: DomainIdParams): Promise<ServiceResult> {
    return this.domains.verify(org, params.domainId);
  }

  @MessagePattern(DomainsPatterns.remove)
  async remove(@Org() org: OrgContext, @Params() params: DomainIdParams): Promise<ServiceResult> {
    return this.domains.remove(org, params.domainId);
  }
}
