import { DynamicModule, Module } from '@nestjs/common';
import { ServiceCoreModule } from '@platform/service';
import { DomainsConfig } from './domains.config';
import { DOMAINS_SCHEMA } from './domains-schema';

@Module({})
export class DomainsModule {
  static forRoot(config: DomainsConfig): DynamicModule {
    return {
      module: DomainsModule,
      imports: [ServiceCoreModule.forRoot({ name: 'domains', config, database: { schema: DOMAINS_SCHEMA } })],
    };
  }
}
