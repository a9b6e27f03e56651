import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { CreateEmailAddressParams, DomainsPatterns, ListEmailAddressesParams, ServiceRequest, ServiceResult } from '@contracts';
import { resourceId } from '../domain/resource-id';
import { EmailAddressesService } from './email-addresses.service';

@Controller()
export class EmailAddressesController {
  constructor(private readonly addresses: EmailAddressesService) {}

  @MessagePattern(DomainsPatterns.listEmails)
  async list(@Payload() request: ServiceRequest<ListEmailAddressesParams>): Promise<ServiceResult> {
    const { domainId, page, limit } = request.params;
    return this.addresses.list(request.org, resourceId(domainId, 'Domain'), { page, limit });
  }

  @MessagePattern(DomainsPatterns.createEmail)
  async create(@Payload() request: ServiceRequest<CreateEmailAddressParams>): Promise<ServiceResult> {
    const { domainId, local_part, is_primary } = request.params;
    return this.addresses.create(request.org, resourceId(domainId, 'Domain'), { localPart: local_part, isPrimary: is_primary });
  }
}
