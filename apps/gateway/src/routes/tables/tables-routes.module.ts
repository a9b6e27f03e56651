import { Module } from '@nestjs/common';
import { RowsController } from './rows.controller';
import { TablesController } from './tables.controller';

/** HTTP routes of the tables context, forwarded to its service over NATS. */
@Module({ controllers: [TablesController, RowsController] })
export class TablesRoutesModule {}
