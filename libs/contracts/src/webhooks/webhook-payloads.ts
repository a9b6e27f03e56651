import { ApiProperty } from '@nestjs/swagger';
import { DomainEventData, MemberEventData, RowEventData, RowUpdatedEventData, TableEventData, TableImportedEventData, WebhookOperationalEventData } from '../events';
import { WEBHOOK_TEST_EVENT } from './webhook-views';

/**
 * What a webhook receiver gets: the JSON body of each signed POST, one class per family of event kinds.
 * They are in the OpenAPI document (components) for receivers to generate types from.
 */
class EventPayload {
  @ApiProperty({ format: 'uuid', description: 'the event id: the same on every attempt, for de-duplication' })
  id!: string;

  @ApiProperty({ format: 'date-time' })
  timestamp!: string;

  @ApiProperty({ format: 'uuid' })
  organization_id!: string;
}

export class RowEventPayload extends EventPayload {
  @ApiProperty({ enum: ['row.created', 'row.deleted'] })
  event!: 'row.created' | 'row.deleted';

  @ApiProperty({ type: () => RowEventData })
  data!: RowEventData;
}

export class RowUpdatedEventPayload extends EventPayload {
  @ApiProperty({ enum: ['row.updated'] })
  event!: 'row.updated';

  @ApiProperty({ type: () => RowUpdatedEventData })
  data!: RowUpdatedEventData;
}

export class TableEventPayload extends EventPayload {
  @ApiProperty({ enum: ['table.created', 'table.updated', 'table.deleted'] })
  event!: 'table.created' | 'table.updated' | 'table.deleted';

  @ApiProperty({ type: () => TableEventData })
  data!: TableEventData;
}

export class TableImportedEventPayload extends EventPayload {
  @ApiProperty({ enum: ['table.imported'] })
  event!: 'table.imported';

  @ApiProperty({ type: () => TableImportedEventData })
  data!: TableImportedEventData;
}

export class MemberEventPayload extends EventPayload {
  @ApiProperty({ enum: ['member.invited', 'member.joined', 'member.removed'] })
  event!: 'member.invited' | 'member.joined' | 'member.removed';

  @ApiProperty({ type: () => MemberEventData })
  data!: MemberEventData;
}

export class DomainEventPayload extends EventPayload {
  @ApiProperty({ enum: ['domain.verified', 'domain.failed', 'domain.degraded', 'domain.deleted'] })
  event!: 'domain.verified' | 'domain.failed' | 'domain.degraded' | 'domain.deleted';

  @ApiProperty({ type: () => DomainEventData })
  data!: DomainEventData;
}

export class WebhookOperationalEventPayload extends EventPayload {
  @ApiProperty({ enum: ['webhook.failed', 'webhook.recovered'] })
  event!: 'webhook.failed' | 'webhook.recovered';

  @ApiProperty({ type: () => WebhookOperationalEventData })
  data!: WebhookOperationalEventData;
}

/** The data of a `webhook.test` payload. */
export class WebhookTestEventData {
  @ApiProperty({ format: 'uuid' })
  webhook_id!: string;

  @ApiProperty({ enum: [true] })
  test!: true;

  @ApiProperty({ required: false, description: 'the event_type asked for in the test request' })
  event_type?: string;
}

export class WebhookTestPayload extends EventPayload {
  @ApiProperty({ enum: [WEBHOOK_TEST_EVENT] })
  event!: typeof WEBHOOK_TEST_EVENT;

  @ApiProperty({ type: () => WebhookTestEventData })
  data!: WebhookTestEventData;
}

/** Every payload family, for the document's components. */
export const WEBHOOK_PAYLOADS = [
  RowEventPayload,
  RowUpdatedEventPayload,
  TableEventPayload,
  TableImportedEventPayload,
  MemberEventPayload,
  DomainEventPayload,
  WebhookOperationalEventPayload,
  WebhookTestPayload,
];
