import { Module } from '@nestjs/common';
import { DomainsController } from './domains.controller';
import { DomainsPlanGuard } from './domains-plan.guard';
import { EmailAddressesController } from './email-addresses.controller';

/** HTTP routes of the domains context, forwarded to its service over NATS. */
@Module({ controllers: [DomainsController, EmailAddressesController], providers: [DomainsPlanGuard] })
export class DomainsRoutesModule {}
