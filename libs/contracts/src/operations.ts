import { CalendarOperations } from './calendar/calendar.operations';
import { DomainsOperations } from './domains/domains.operations';
import type { Operation } from './operation';
import { WebhooksOperations } from './webhooks/webhooks.operations';

/** Every operation of the public API, in the order the OpenAPI document lists them. */
export const API_OPERATIONS: readonly Operation[] = [
  ...Object.values(WebhooksOperations),
  ...Object.values(DomainsOperations),
  ...Object.values(CalendarOperations),
];
