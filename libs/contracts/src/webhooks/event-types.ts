import { ApiProperty } from '@nestjs/swagger';
import {
  DomainEventData,
  MemberEventData,
  RowEventData,
  RowUpdatedEventData,
  TableEventData,
  TableImportedEventData,
  WebhookOperationalEventData,
} from '../events';
import { EVENT_KINDS, EventKind } from '../event-kinds';
import { jsonSchemaOf, JsonSchema } from '../json-schema';
import { TABLES_EXTRA_MODELS } from '../tables/table.views';
import {
  DomainEventPayload,
  MemberEventPayload,
  RowEventPayload,
  RowUpdatedEventPayload,
  TableEventPayload,
  TableImportedEventPayload,
  WebhookOperationalEventPayload,
  WebhookTestEventData,
  WebhookTestPayload,
} from './webhook-payloads';
import { WEBHOOK_TEST_EVENT } from './webhook-views';

type ContractClass = abstract new () => unknown;

/** What one kind of event is: what happened, the payload class a receiver gets, and the class of its `data`. */
export interface EventType {
  description: string;
  payload: ContractClass;
  data: ContractClass;
}

const row = { payload: RowEventPayload, data: RowEventData };
const table = { payload: TableEventPayload, data: TableEventData };
const member = { payload: MemberEventPayload, data: MemberEventData };
const domain = { payload: DomainEventPayload, data: DomainEventData };
const operational = { payload: WebhookOperationalEventPayload, data: WebhookOperationalEventData };

/**
 * Every kind a webhook can subscribe to, the one source of `GET /event-types` and of the OpenAPI
 * document's `webhooks` section: the schemas come from the payload classes' decorators.
 */
export const EVENT_TYPES: Record<EventKind, EventType> = {
  'row.created': { ...row, description: 'A row was created; `row_data` is the row as stored.' },
  'row.updated': {
    payload: RowUpdatedEventPayload,
    data: RowUpdatedEventData,
    description: 'A row was changed: the row after the change, the whole row before it, and the slugs of the fields whose value changed.',
  },
  'row.deleted': { ...row, description: 'A row was deleted; `row_data` is the row as it was.' },
  'table.created': { ...table, description: 'A table was created.' },
  'table.updated': { ...table, description: 'A table was renamed, or fields were added, changed or removed.' },
  'table.deleted': { ...table, description: 'A table was deleted with its rows.' },
  'table.imported': {
    payload: TableImportedEventPayload,
    data: TableImportedEventData,
    description: 'An import into the table finished: how many rows it created, updated and could not take.',
  },
  'member.invited': { ...member, description: 'A member was invited to the organization.' },
  'member.joined': { ...member, description: 'An invited member joined the organization.' },
  'member.removed': { ...member, description: 'A member was removed from the organization.' },
  'domain.verified': { ...domain, description: 'A pending or failed email domain became `active`: its DNS records are right.' },
  'domain.failed': { ...domain, description: 'An email domain became `failed`: its verification window ended before its records were right.' },
  'domain.degraded': {
    ...domain,
    description: 'A check of an active email domain found a required record missing or wrong, where the check before found them all right.',
  },
  'domain.deleted': { ...domain, description: 'An email domain was removed; sending from it stops (`status` is the one it had).' },
  'webhook.failed': {
    ...operational,
    description: 'Another webhook of the organization became `failed`: all six attempts of one delivery failed. Never sent to the webhook it is about.',
  },
  'webhook.recovered': {
    ...operational,
    description: 'A failed webhook of the organization delivered with success again. Never sent to the webhook it is about.',
  },
};

/** `webhook.test`, sent by `POST /webhooks/{webhook_id}/test` only: not subscribable, but a receiver gets it. */
export const TEST_EVENT_TYPE: EventType = {
  payload: WebhookTestPayload,
  data: WebhookTestEventData,
  description: 'A test send asked for with `POST /webhooks/{webhook_id}/test`; never sent otherwise.',
};

/** Every kind a receiver can get, `webhook.test` last. */
export function receivedEventTypes(): Array<[string, EventType]> {
  return [...EVENT_KINDS.map((kind): [string, EventType] => [kind, EVENT_TYPES[kind]]), [WEBHOOK_TEST_EVENT, TEST_EVENT_TYPE]];
}

export class EventTypeView {
  @ApiProperty({ enum: EVENT_KINDS, example: 'row.updated' })
  event_type!: EventKind;

  @ApiProperty({ example: EVENT_TYPES['row.updated'].description })
  description!: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: "the JSON Schema (2020-12) of the payload's `data`",
    example: { type: 'object', properties: { table_id: { type: 'string', format: 'uuid' } }, required: ['table_id'] },
  })
  data_schema!: JsonSchema;
}

/** `GET /event-types`: every subscribable kind in the order of EVENT_KINDS, with the JSON Schema of its `data`. */
export function eventTypeViews(): EventTypeView[] {
  return EVENT_KINDS.map((kind) => ({
    event_type: kind,
    description: EVENT_TYPES[kind].description,
    data_schema: jsonSchemaOf(EVENT_TYPES[kind].data, TABLES_EXTRA_MODELS),
  }));
}
