import { DynamicModule, Module } from '@nestjs/common';
import { NatsConnectionModule, OutboxWakeModule, ServiceCoreModule } from '@platform/service';
import { AttachmentFiles } from './attachments/attachment-files';
import { FileCleanup } from './attachments/file-cleanup';
import { ObjectDeletionsRepository } from './attachments/object-deletions.repository';
import { ObjectStorage } from './attachments/object-storage';
import { UploadsHandlers } from './attachments/uploads.handlers';
import { UploadsRepository } from './attachments/uploads.repository';
import { UploadsService } from './attachments/uploads.service';
import { ExportsHandlers } from './exports/exports.handlers';
import { ExportsRepository } from './exports/exports.repository';
import { ExportsService } from './exports/exports.service';
import { ImportsHandlers } from './imports/imports.handlers';
import { ImportsRepository } from './imports/imports.repository';
import { ImportsService } from './imports/imports.service';
import { RowCursors } from './rows/row-cursor';
import { RowBatchesHandlers } from './rows/row-batches.handlers';
import { RowBatchesService } from './rows/row-batches.service';
import { RowUpsertsService } from './rows/row-upserts.service';
import { RowsHandlers } from './rows/rows.handlers';
import { RowsRepository } from './rows/rows.repository';
import { RowsService } from './rows/rows.service';
import { RowCreateGroups } from './rows/row-create-groups';
import { TablesHandlers } from './tables/tables.handlers';
import { TablesService } from './tables/tables.service';
import { UserTableCache } from './tables/user-table.cache';
import { UserTableRepository } from './tables/user-table.repository';
import { TablesConfig } from './tables.config';
import { TABLES_OUTBOX } from './tables-schema';
import { PendingIndexes } from './storage/pending-indexes';

/** Files of attachment fields: presigned uploads, their checks, download links and the cleanup of storage. */
const ATTACHMENT_PROVIDERS = [ObjectStorage, UploadsRepository, UploadsService, ObjectDeletionsRepository, AttachmentFiles, FileCleanup];

/** The declared operations of the tables context; its outbox is published by the tables-relay process, its imports run in tables-jobs. */
@Module({})
export class TablesModule {
  static forRoot(config: TablesConfig): DynamicModule {
    return {
      module: TablesModule,
      imports: [ServiceCoreModule.forRoot({ name: 'tables', config, database: true }), NatsConnectionModule.forRoot('tables'), OutboxWakeModule.forOutbox(TABLES_OUTBOX)],
      providers: [
        TablesHandlers,
        RowsHandlers,
        RowBatchesHandlers,
        UploadsHandlers,
        ImportsHandlers,
        ExportsHandlers,
        UserTableRepository,
        UserTableCache,
        TablesService,
        RowsRepository,
        RowsService,
        RowCreateGroups,
        RowBatchesService,
        RowUpsertsService,
        ImportsRepository,
        ImportsService,
        ExportsRepository,
        ExportsService,
        { provide: RowCursors, useValue: new RowCursors(config.rowCursorKey) },
        ...ATTACHMENT_PROVIDERS,
        PendingIndexes,
      ],
    };
  }
}
