import { DynamicModule, Module } from '@nestjs/common';
import { NatsConnectionModule, OutboxWakeModule, ServiceCoreModule } from '@platform/service';
import { AttachmentFiles } from './attachments/attachment-files';
import { FileCleanup } from './attachments/file-cleanup';
import { ObjectDeletionsRepository } from './attachments/object-deletions.repository';
import { ObjectStorage } from './attachments/object-storage';
import { UploadsController } from './attachments/uploads.controller';
import { UploadsRepository } from './attachments/uploads.repository';
import { UploadsService } from './attachments/uploads.service';
import { ImportsController } from './imports/imports.controller';
import { ImportsRepository } from './imports/imports.repository';
import { ImportsService } from './imports/imports.service';
import { RowCursors } from './rows/row-cursor';
import { RowBatchesController } from './rows/row-batches.controller';
import { RowBatchesService } from './rows/row-batches.service';
import { RowUpsertsService } from './rows/row-upserts.service';
import { RowsController } from './rows/rows.controller';
import { RowsRepository } from './rows/rows.repository';
import { RowsService } from './rows/rows.service';
import { TablesController } from './tables/tables.controller';
import { TablesService } from './tables/tables.service';
import { UserTableCache } from './tables/user-table.cache';
import { UserTableRepository } from './tables/user-table.repository';
import { TablesConfig } from './tables.config';
import { TABLES_OUTBOX } from './tables-schema';
import { PendingIndexes } from './storage/pending-indexes';

/** Files of attachment fields: presigned uploads, their checks, download links and the cleanup of storage. */
const ATTACHMENT_PROVIDERS = [ObjectStorage, UploadsRepository, UploadsService, ObjectDeletionsRepository, AttachmentFiles, FileCleanup];

/** Request-reply handlers of the tables context; its outbox is published by the tables-relay process, its imports run in tables-jobs. */
@Module({})
export class TablesModule {
  static forRoot(config: TablesConfig): DynamicModule {
    return {
      module: TablesModule,
      imports: [ServiceCoreModule.forRoot({ name: 'tables', config, database: true }), NatsConnectionModule.forRoot('tables'), OutboxWakeModule.forOutbox(TABLES_OUTBOX)],
      controllers: [TablesController, RowsController, RowBatchesController, UploadsController, ImportsController],
      providers: [
        UserTableRepository,
        UserTableCache,
        TablesService,
        RowsRepository,
        RowsService,
        RowBatchesService,
        RowUpsertsService,
        ImportsRepository,
        ImportsService,
        { provide: RowCursors, useValue: new RowCursors(config.rowCursorKey) },
        ...ATTACHMENT_PROVIDERS,
        PendingIndexes,
      ],
    };
  }
}
