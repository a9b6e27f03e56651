import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { CreateEmailAddressParams, DomainsPatterns, ListEmailAddressesParams, OrgContext, ServiceResult } from '@contracts';
import { Org, Params } from '@platform/messaging';
import { EmailAddressesService } from './email-addresses.service';

@Controller()
export class EmailAddressesController {
  constructor(private readonly addresses: EmailAddressesService) {}

  @MessagePattern(DomainsPatterns.listEmails)
  async list(@Org() org: OrgContext, @Params() params: ListEmailAddressesParams): Promise<ServiceResult> {
    return this.addresses.list(org, params.domainId, params);
  }

  @MessagePattern(DomainsPatterns.createEmail)
  async create(@Org() org: OrgContext, @Params() params: CreateEmailAddressParams): Promise<ServiceResult> {
    return this.addresses.create(org, params.domainId, { localPart: params.local_part, isPrimary: params.is_primary === true });
  }
}
