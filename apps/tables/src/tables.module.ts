import { DynamicModule, Module } from '@nestjs/common';
import { ServiceCoreModule } from '@platform/service';
import { TablesConfig } from './tables.config';
import { TABLES_SCHEMA } from './tables-schema';

@Module({})
export class TablesModule {
  static forRoot(config: TablesConfig): DynamicModule {
    return {
      module: TablesModule,
      imports: [ServiceCoreModule.forRoot({ name: 'tables', config, database: { schema: TABLES_SCHEMA } })],
    };
  }
}
