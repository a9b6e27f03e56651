import { Outbox, type SchemaOwner } from '@platform/persistence';
import { Tables1763710000000 } from './migrations/1763710000000-tables';
import { AttachmentFiles1764000019000 } from './migrations/1764000019000-attachment-files';
import { TextSearch1764100000000 } from './migrations/1764100000000-text-search';
import { OutboxWake1764200000000 } from './migrations/1764200000000-outbox-wake';
import { UploadTickets1764500000000 } from './migrations/1764500000000-upload-tickets';
import { PendingIndexes1764500100000 } from './migrations/1764500100000-pending-indexes';
import { Imports1764700000000 } from './migrations/1764700000000-imports';
import { OutboxAnnounced1764450000000 } from './migrations/1764450000000-outbox-announced';
import { OutboxParked1764600000000 } from './migrations/1764600000000-outbox-parked';
import { SearchableFields1764800000000 } from './migrations/1764800000000-searchable-fields';
import { Exports1764900000000 } from './migrations/1764900000000-exports';
import { OutboxText1765000000000 } from './migrations/1765000000000-outbox-text';

export const TABLES_SCHEMA = 'tables';

/** Qualified names of the context's own tables, for its SQL. */
export const USER_TABLES_TABLE = `${TABLES_SCHEMA}.user_tables`;
export const FIELDS_TABLE = `${TABLES_SCHEMA}.fields`;
export const ROW_COUNTS_TABLE = `${TABLES_SCHEMA}.row_counts`;
export const IMPORTS_TABLE = `${TABLES_SCHEMA}.imports`;
export const EXPORTS_TABLE = `${TABLES_SCHEMA}.exports`;

export const TABLES_OUTBOX = new Outbox(TABLES_SCHEMA);

export function tablesSchema(url: string): SchemaOwner {
  return {
    schema: TABLES_SCHEMA,
    url,
    migrations: [
      Tables1763710000000,
      AttachmentFiles1764000019000,
      TextSearch1764100000000,
      OutboxWake1764200000000,
      OutboxAnnounced1764450000000,
      OutboxParked1764600000000,
      UploadTickets1764500000000,
      PendingIndexes1764500100000,
      Imports1764700000000,
      SearchableFields1764800000000,
      Exports1764900000000,
      OutboxText1765000000000,
    ],
  };
}
