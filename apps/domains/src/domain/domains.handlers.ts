import { Injectable } from '@nestjs/common';
import { DomainsOperations as Ops, OperationInput } from '@contracts';
import { Handles, ServiceCaller } from '@platform/messaging';
import { DomainsService } from './domains.service';

@Injectable()
export class DomainsHandlers {
  constructor(private readonly domains: DomainsService) {}

  @Handles(Ops.list)
  list(input: OperationInput<typeof Ops.list>, { org }: ServiceCaller) {
    return this.domains.list(org, input);
  }

  @Handles(Ops.get)
  get({ domainId }: OperationInput<typeof Ops.get>, { org }: ServiceCaller) {
    return this.domains.get(org, domainId);
  }

  @Handles(Ops.create)
  create({ domain }: OperationInput<typeof Ops.create>, { org }: ServiceCaller) {
    return this.domains.create(org, domain);
  }

  @Handles(Ops.verify)
  verify({ domainId }: OperationInput<typeof Ops.verify>, { org }: ServiceCaller) {
    return this.domains.verify(org, domainId);
  }

  @Handles(Ops.remove)
  remove({ domainId }: OperationInput<typeof Ops.remove>, { org }: ServiceCaller) {
    return this.domains.remove(org, domainId);
  }
}
