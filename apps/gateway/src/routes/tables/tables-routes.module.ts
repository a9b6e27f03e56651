import { Module } from '@nestjs/common';
import { ImportsController } from './imports.controller';
import { RowsController } from './rows.controller';
import { TablesController } from './tables.controller';
import { UploadsController } from './uploads.controller';

/** HTTP routes of the tables context, forwarded to its service over NATS. */
@Module({ controllers: [TablesController, RowsController, UploadsController, ImportsController] })
export class TablesRoutesModule {}
