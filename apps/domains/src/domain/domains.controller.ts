import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { CreateDomainParams, DomainIdParams, DomainsPatterns, ListDomainsParams, ServiceRequest, ServiceResult } from '@contracts';
import { DomainsService } from './domains.service';
import { resourceId } from './resource-id';

@Controller()
export class DomainsController {
  constructor(private readonly domains: DomainsService) {}

  @MessagePattern(DomainsPatterns.list)
  async list(@Payload() request: ServiceRequest<ListDomainsParams>): Promise<ServiceResult> {
    return this.domains.list(request.org, request.params);
  }

  @MessagePattern(DomainsPatterns.get)
  async get(@Payload() request: ServiceRequest<DomainIdParams>): Promise<ServiceResult> {
    return this.domains.get(request.org, resourceId(request.params.domainId, 'Domain'));
  }

  @MessagePattern(DomainsPatterns.create)
  async create(@Payload() request: ServiceRequest<CreateDomainParams>): Promise<ServiceResult> {
    return this.domains.create(request.org, request.params.domain);
  }

  @MessagePattern(DomainsPatterns.verify)
  async verify(@Payload() request: ServiceRequest<DomainIdParams>): Promise<ServiceResult> {
    return this.domains.verify(request.org, resourceId(request.params.domainId, 'Domain'));
  }

  @MessagePattern(DomainsPatterns.remove)
  async remove(@Payload() request: ServiceRequest<DomainIdParams>): Promise<ServiceResult> {
    return this.domains.remove(request.org, resourceId(request.params.domainId, 'Domain'));
  }
}
