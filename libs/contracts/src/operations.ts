import { CalendarOperations } from './calendar/calendar.operations';
import { DomainsOperations } from './domains/domains.operations';
import type { Operation } from './operation';
import { ExportsOperations } from './tables/exports.operations';
import { ImportsOperations } from './tables/imports.operations';
import { RowsOperations } from './tables/rows.operations';
import { TablesOperations } from './tables/tables.operations';
import { UploadsOperations } from './tables/uploads.operations';
import { WebhooksOperations } from './webhooks/webhooks.operations';

/** Every operation of the public API, in the order the OpenAPI document lists them. */
export const API_OPERATIONS: readonly Operation[] = [
  ...Object.values(TablesOperations),
  ...Object.values(RowsOperations),
  ...Object.values(UploadsOperations),
  ...Object.values(ImportsOperations),
  ...Object.values(ExportsOperations),
  ...Object.values(WebhooksOperations),
  ...Object.values(DomainsOperations),
  ...Object.values(CalendarOperations),
];
