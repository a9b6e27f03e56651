import { ApiProperty, PickType } from '@nestjs/swagger';
import { ImportView } from './tables/import.dto';
import { ROW_DATA_SCHEMA } from './tables/table.views';

/** The data of each event kind (event-kinds.ts names the kinds), as the OpenAPI document describes it. */

export class RowEventData {
  @ApiProperty({ format: 'uuid' })
  table_id!: string;

  @ApiProperty()
  table_name!: string;

  @ApiProperty({ format: 'uuid' })
  row_id!: string;

  @ApiProperty({ ...ROW_DATA_SCHEMA, description: 'the row after the change; for row.deleted, the row as it was' })
  row_data!: Record<string, unknown>;
}

/** `row.updated`: the row after the change, the whole row before it, and the slugs whose value changed. */
export class RowUpdatedEventData extends RowEventData {
  @ApiProperty({ ...ROW_DATA_SCHEMA, description: 'the whole row before the change' })
  previous_row_data!: Record<string, unknown>;

  @ApiProperty({ type: [String], description: 'slugs of the fields whose value changed' })
  changed_fields!: string[];
}

export class TableEventData {
  @ApiProperty({ format: 'uuid' })
  table_id!: string;

  @ApiProperty()
  table_name!: string;

  @ApiProperty()
  table_slug!: string;
}

export class MemberEventData {
  @ApiProperty({ format: 'uuid' })
  member_id!: string;

  @ApiProperty({ format: 'email' })
  email!: string;

  @ApiProperty({ example: 'admin' })
  role!: string;
}

/** `status` is the domain's status after the change (for `domain.deleted`, the one it had); `issues` those of its latest check. */
export class DomainEventData {
  @ApiProperty({ format: 'uuid' })
  domain_id!: string;

  @ApiProperty({ example: 'mail.example.com' })
  domain!: string;

  @ApiProperty({ enum: ['pending', 'active', 'failed'] })
  status!: 'pending' | 'active' | 'failed';

  @ApiProperty({ type: [String], description: 'what the latest check found wrong, in plain words' })
  issues!: string[];
}

/** `webhook.failed` (its status became `failed`) and `webhook.recovered` (a failed webhook delivered with success again). */
export class WebhookOperationalEventData {
  @ApiProperty({ format: 'uuid' })
  webhook_id!: string;

  @ApiProperty({ example: 'Orders sync' })
  name!: string;

  @ApiProperty({ format: 'uri' })
  url!: string;

  @ApiProperty({ enum: ['active', 'failed'], description: 'the status it has now' })
  status!: 'active' | 'failed';

  @ApiProperty({ type: String, nullable: true, description: 'what went wrong on the attempt that made it fail; null for webhook.recovered' })
  last_error!: string | null;
}

/** `table.imported`: an import completed, as one change instead of an event per row; its counts are the import's. */
export class TableImportedEventData extends PickType(ImportView, ['table_id', 'rows_created', 'rows_updated', 'rows_failed'] as const) {
  @ApiProperty({ format: 'uuid' })
  import_id!: string;
}
