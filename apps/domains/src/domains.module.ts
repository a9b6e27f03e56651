import { DynamicModule, Module } from '@nestjs/common';
import { NatsConnectionModule, OutboxWakeModule, ServiceCoreModule } from '@platform/service';
import { DomainsHandlers } from './domain/domains.handlers';
import { DomainsRepository } from './domain/domains.repository';
import { DomainsService } from './domain/domains.service';
import { DomainsConfig } from './domains.config';
import { DOMAINS_OUTBOX } from './domains-schema';
import { EmailAddressesHandlers } from './email-address/email-addresses.handlers';
import { EmailAddressesRepository } from './email-address/email-addresses.repository';
import { EmailAddressesService } from './email-address/email-addresses.service';
import { DomainRecheckJob } from './recheck/domain-recheck.job';
import { DnsLookupService } from './verification/dns-lookup.service';
import { DomainChecker } from './verification/domain-checker.service';

@Module({})
export class DomainsModule {
  static forRoot(config: DomainsConfig): DynamicModule {
    return {
      module: DomainsModule,
      imports: [
        ServiceCoreModule.forRoot({ name: 'domains', config, database: true }),
        NatsConnectionModule.forRoot('domains'),
        OutboxWakeModule.forOutbox(DOMAINS_OUTBOX),
      ],
      providers: [
        DomainsHandlers,
        DomainsRepository,
        DomainsService,
        DnsLookupService,
        DomainChecker,
        DomainRecheckJob,
        EmailAddressesHandlers,
        EmailAddressesRepository,
        EmailAddressesService,
      ],
    };
  }
}
