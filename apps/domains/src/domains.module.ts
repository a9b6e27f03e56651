import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ServiceCoreModule } from '@platform/service';
import { DomainEntity } from './domain/domain.entity';
import { DomainsController } from './domain/domains.controller';
import { DomainsRepository } from './domain/domains.repository';
import { DomainsService } from './domain/domains.service';
import { DomainsConfig } from './domains.config';
import { DOMAINS_ENTITIES, DOMAINS_SCHEMA } from './domains-schema';
import { EmailAddressesController } from './email-address/email-addresses.controller';
import { EmailAddressesService } from './email-address/email-addresses.service';
import { DnsLookupService } from './verification/dns-lookup.service';

@Module({})
export class DomainsModule {
  static forRoot(config: DomainsConfig): DynamicModule {
    return {
      module: DomainsModule,
      imports: [
        ServiceCoreModule.forRoot({ name: 'domains', config, database: { schema: DOMAINS_SCHEMA, entities: DOMAINS_ENTITIES } }),
        TypeOrmModule.forFeature([DomainEntity]),
      ],
      controllers: [DomainsController, EmailAddressesController],
      providers: [DomainsRepository, DomainsService, DnsLookupService, EmailAddressesService],
    };
  }
}
