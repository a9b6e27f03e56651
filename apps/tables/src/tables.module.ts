import { DynamicModule, Module } from '@nestjs/common';
import { ServiceCoreModule } from '@platform/service';
import { RowsController } from './rows/rows.controller';
import { RowsRepository } from './rows/rows.repository';
import { RowsService } from './rows/rows.service';
import { TablesDb } from './storage/tables-db';
import { TablesController } from './tables/tables.controller';
import { TablesService } from './tables/tables.service';
import { UserTableCache } from './tables/user-table.cache';
import { UserTableRepository } from './tables/user-table.repository';
import { TablesConfig } from './tables.config';
import { TABLES_SCHEMA } from './tables-schema';

/** Request-reply handlers of the tables context; its outbox is published by the separate tables-relay process. */
@Module({})
export class TablesModule {
  static forRoot(config: TablesConfig): DynamicModule {
    return {
      module: TablesModule,
      imports: [ServiceCoreModule.forRoot({ name: 'tables', config, database: { schema: TABLES_SCHEMA } })],
      controllers: [TablesController, RowsController],
      providers: [TablesDb, UserTableRepository, UserTableCache, TablesService, RowsRepository, RowsService],
    };
  }
}
