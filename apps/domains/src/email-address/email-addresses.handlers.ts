import { Injectable } from '@nestjs/common';
import { DomainsOperations as Ops, OperationInput } from '@contracts';
import { Handles, ServiceCaller } from '@platform/messaging';
import { EmailAddressesService } from './email-addresses.service';

@Injectable()
export class EmailAddressesHandlers {
  constructor(private readonly addresses: EmailAddressesService) {}

  @Handles(Ops.listEmails)
  list(input: OperationInput<typeof Ops.listEmails>, { org }: ServiceCaller) {
    return this.addresses.list(org, input.domainId, input);
  }

  @Handles(Ops.createEmail)
  create(input: OperationInput<typeof Ops.createEmail>, { org }: ServiceCaller) {
    return this.addresses.create(org, input.domainId, { localPart: input.local_part, isPrimary: input.is_primary === true });
  }
}
