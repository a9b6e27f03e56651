import { DynamicModule, Module } from '@nestjs/common';
import { NatsConnectionModule, OutboxWakeModule, ServiceCoreModule } from '@platform/service';
import { AttachmentFiles } from '../attachments/attachment-files';
import { ObjectDeletionsRepository } from '../attachments/object-deletions.repository';
import { ObjectStorage } from '../attachments/object-storage';
import { UploadsRepository } from '../attachments/uploads.repository';
import { ExportWorker } from '../exports/export-worker';
import { ExportsRepository } from '../exports/exports.repository';
import { ImportRunner } from '../imports/import-runner';
import { ImportWorker } from '../imports/import-worker';
import { ImportsRepository } from '../imports/imports.repository';
import { RowsRepository } from '../rows/rows.repository';
import { UserTableRepository } from '../tables/user-table.repository';
import { TablesConfig } from '../tables.config';
import { TABLES_OUTBOX } from '../tables-schema';
import { TablesJobsConfig } from './tables-jobs.config';

/**
 * The tables context's background jobs (imports, exports), claimed from Postgres: long work that holds a connection
 * and streams files runs here, away from the processes that answer requests. It answers no requests, so it
 * scales on its own.
 */
@Module({})
export class TablesJobsModule {
  static forRoot(config: TablesJobsConfig): DynamicModule {
    return {
      module: TablesJobsModule,
      // An import's event wakes the relay like any other commit to the outbox.
      imports: [ServiceCoreModule.forRoot({ name: 'tables-jobs', config, database: true }), NatsConnectionModule.forRoot('tables-jobs'), OutboxWakeModule.forOutbox(TABLES_OUTBOX)],
      providers: [
        { provide: TablesConfig, useValue: config },
        UserTableRepository,
        RowsRepository,
        ObjectStorage,
        UploadsRepository,
        ObjectDeletionsRepository,
        AttachmentFiles,
        ImportsRepository,
        ImportRunner,
        ImportWorker,
        ExportsRepository,
        ExportWorker,
      ],
    };
  }
}
