import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayNotEmpty, ArrayUnique, IsArray, IsBoolean, IsIn, IsInt, IsISO8601, IsObject, IsOptional, IsString, IsUUID, Length, Matches, Max, Min, ValidateIf } from 'class-validator';
import { EVENT_KINDS } from '../event-kinds';
import { JsonData } from '../json-data';
import { PageQuery } from '../pagination';
import { documented, type Presence } from '../presence';
import { MAX_FIELDS_PER_TABLE } from '../tables/table.dto';
import { MAX_TABLE_IDS_PER_LOOKUP } from '../tables/tables.messages';
import { WEBHOOK_TEST_EVENT } from './webhook-views';
import { IsWebhookUrl } from './webhook-url.validator';

const NOT_BLANK = /\S/;
/** Optional in a PATCH, but `null` is not a value: absent means unchanged. */
const unlessAbsent = ValidateIf((_: object, value: unknown) => value !== undefined);

/** The most tables one webhook may be narrowed to: what the tables context checks in one message. */
export const MAX_WEBHOOK_TABLE_IDS = MAX_TABLE_IDS_PER_LOOKUP;
/** Webhooks one organization may hold; one more is a LIMIT_EXCEEDED. */
export const MAX_WEBHOOKS_PER_ORGANIZATION = 100;

const TABLE_IDS_DOC = {
  type: String,
  format: 'uuid',
  isArray: true,
  nullable: true,
  minItems: 1,
  maxItems: MAX_WEBHOOK_TABLE_IDS,
  uniqueItems: true,
  description:
    'Only `row.*` and `table.*` events of these tables of the organization (other kinds are unaffected); ' +
    'absent or null: every table. An empty list, a repeated id or an id that names no table of the organization is refused.',
} as const;

/** Ids compared case-insensitively, as Postgres compares uuids; anything else is left for IsUUID to refuse. */
const caseless = (id: unknown) => (typeof id === 'string' ? id.toLowerCase() : id);

/**
 * `table_ids`: absent or null skips the checks (on update, null clears the filter); otherwise a non-empty list
 * of distinct UUIDs. Whether they name tables of the organization is for the webhooks service to ask.
 */
function TableIds(description: string = TABLE_IDS_DOC.description): PropertyDecorator {
  const decorators = [
    ApiPropertyOptional({ ...TABLE_IDS_DOC, description }),
    IsOptional(),
    IsArray(),
    ArrayNotEmpty({ message: 'table_ids must not be empty: leave it out, or null, to get the events of every table' }),
    ArrayMaxSize(MAX_WEBHOOK_TABLE_IDS, { message: `table_ids must hold at most ${MAX_WEBHOOK_TABLE_IDS} ids` }),
    IsUUID('all', { each: true, message: 'table_ids must hold table ids (UUIDs)' }),
    ArrayUnique(caseless, { message: 'table_ids must not repeat an id' }),
  ];
  return (target, property) => decorators.forEach((decorate) => decorate(target, property));
}

/** The most deliveries per second a webhook's `rate_limit` may allow. */
export const MAX_WEBHOOK_RATE_LIMIT = 1000;

const FILTER_DOC = {
  type: 'object',
  additionalProperties: true,
  nullable: true,
  example: { stage: 'won', amount: { gte: 1000 } },
  description:
    'The rows list filter grammar (keys are field slugs, `and`, `or`; operators eq ne gt gte lt lte in nin contains starts_with is_empty), ' +
    'checked against the fields of the one table in `table_ids`. A `row.*` event is delivered only when its row matches ' +
    '(`row.deleted`: the row as it was). null: no filter.',
} as const;

const WATCH_FIELDS_DOC = {
  type: String,
  isArray: true,
  nullable: true,
  minItems: 1,
  maxItems: MAX_FIELDS_PER_TABLE,
  uniqueItems: true,
  example: ['stage'],
  description: 'Slugs of fields of the one table in `table_ids`: a `row.updated` is delivered only when one of them changed. null: every change.',
} as const;

const RATE_LIMIT_DOC = {
  type: 'integer',
  minimum: 1,
  maximum: MAX_WEBHOOK_RATE_LIMIT,
  nullable: true,
  description: 'Deliveries per second at most; the rest wait their turn, nothing is dropped. null: no limit.',
} as const;

/** `filter`: a JSON object, or null to clear it; its conditions are checked by the webhooks service against the table. */
function RowFilter(description: string = FILTER_DOC.description): PropertyDecorator {
  const decorators = [ApiPropertyOptional({ ...FILTER_DOC, description }), JsonData(), IsOptional(), IsObject({ message: 'filter must be a JSON object of conditions' })];
  return (target, property) => decorators.forEach((decorate) => decorate(target, property));
}

/** `watch_fields`: a non-empty list of distinct slugs, or null to clear it; the service checks they name fields of the table. */
function WatchFields(): PropertyDecorator {
  const decorators = [
    ApiPropertyOptional(WATCH_FIELDS_DOC),
    IsOptional(),
    IsArray(),
    ArrayNotEmpty({ message: 'watch_fields must not be empty: leave it out, or null, to get every change' }),
    ArrayMaxSize(MAX_FIELDS_PER_TABLE),
    IsString({ each: true, message: 'watch_fields must hold field slugs' }),
    Length(1, 100, { each: true, message: 'watch_fields must hold field slugs' }),
    ArrayUnique({ message: 'watch_fields must not repeat a slug' }),
  ];
  return (target, property) => decorators.forEach((decorate) => decorate(target, property));
}

function RateLimit(): PropertyDecorator {
  const decorators = [ApiPropertyOptional(RATE_LIMIT_DOC), IsOptional(), IsInt({ message: 'rate_limit must be a whole number of deliveries per second' }), Min(1), Max(MAX_WEBHOOK_RATE_LIMIT)];
  return (target, property) => decorators.forEach((decorate) => decorate(target, property));
}

/** On update a property may be absent (unchanged) but not null; on create the checks themselves refuse a missing one. */
const absentWhen = (presence: Presence): PropertyDecorator[] => (presence === 'optional' ? [unlessAbsent] : []);

/*
 * The rules of a webhook's name, URL and events, the same on create and update but for whether the property
 * must be there. Each lists its decorators last first, the order in which stacked decorators apply, so a
 * refusal names the same check.
 */

/** A webhook's name: 1 to 100 characters, not all blank. */
const WebhookName = (presence: Presence, doc: ApiPropertyOptions = {}) =>
  applyDecorators(Matches(NOT_BLANK, { message: 'name must not be blank' }), Length(1, 100), IsString(), ...absentWhen(presence), documented(presence, { minLength: 1, maxLength: 100, ...doc }));

/** Where deliveries go: an absolute http(s) URL of a public address. */
const WebhookUrl = (presence: Presence, doc: ApiPropertyOptions = {}) => applyDecorators(IsWebhookUrl(), IsString(), ...absentWhen(presence), documented(presence, doc));

/** The event kinds a webhook subscribes to: a non-empty list of distinct EVENT_KINDS. */
const EventKinds = (presence: Presence, doc: ApiPropertyOptions = {}) =>
  applyDecorators(
    IsIn(EVENT_KINDS, { each: true }),
    ArrayUnique(),
    ArrayMaxSize(EVENT_KINDS.length),
    ArrayNotEmpty(),
    IsArray(),
    ...absentWhen(presence),
    documented(presence, { enum: EVENT_KINDS, isArray: true, ...doc }),
  );

export class CreateWebhookBody {
  @WebhookName('required', { example: 'Orders sync' })
  name!: string;

  @WebhookUrl('required', { example: 'https://example.com/hooks/platform', description: 'Absolute http(s) URL; private and reserved addresses are refused' })
  url!: string;

  @EventKinds('required', { example: ['row.created'] })
  events!: string[];

  @TableIds()
  table_ids?: string[] | null;

  @RowFilter()
  filter?: Record<string, unknown> | null;

  @WatchFields()
  watch_fields?: string[] | null;

  @RateLimit()
  rate_limit?: number | null;
}

export class UpdateWebhookBody {
  @WebhookName('optional')
  name?: string;

  @WebhookUrl('optional')
  url?: string;

  @EventKinds('optional')
  events?: string[];

  @TableIds(`${TABLE_IDS_DOC.description} On update, null clears the filter.`)
  table_ids?: string[] | null;

  @RowFilter(`${FILTER_DOC.description} On update, null clears it.`)
  filter?: Record<string, unknown> | null;

  @WatchFields()
  watch_fields?: string[] | null;

  @RateLimit()
  rate_limit?: number | null;

  @ApiPropertyOptional({ description: 'false disables the webhook; true enables it again' })
  @unlessAbsent
  @IsBoolean()
  active?: boolean;
}

export const WEBHOOK_TEST_EVENT_TYPES = [WEBHOOK_TEST_EVENT, ...EVENT_KINDS] as const;

export class TestWebhookBody {
  @ApiPropertyOptional({ enum: WEBHOOK_TEST_EVENT_TYPES, description: 'Carried in the test payload data; the payload event is always webhook.test' })
  @unlessAbsent
  @IsIn(WEBHOOK_TEST_EVENT_TYPES)
  event_type?: string;
}

/** The longest overlap a rotation may give the previous secret: a week. */
export const MAX_SECRET_OVERLAP_SECONDS = 604_800;
export const DEFAULT_SECRET_OVERLAP_SECONDS = 86_400;

export class RotateSecretBody {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: MAX_SECRET_OVERLAP_SECONDS,
    default: DEFAULT_SECRET_OVERLAP_SECONDS,
    description: 'How long the previous secret keeps signing beside the new one; 0 retires it at once',
  })
  @unlessAbsent
  @IsInt()
  @Min(0)
  @Max(MAX_SECRET_OVERLAP_SECONDS)
  expire_previous_in_seconds?: number;
}

/** A query-string flag: exactly `true` or `false`; anything else is left as sent, for the validator to refuse. */
const QueryFlag = () => Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value));

/** `GET /webhooks/{id}/deliveries`: a page, optionally only successes or failures, or one event type. */
export class DeliveriesQuery extends PageQuery {
  @ApiPropertyOptional({ type: 'boolean', description: '`true` for successful attempts only, `false` for failed ones' })
  @unlessAbsent
  @QueryFlag()
  @IsBoolean()
  success?: boolean;

  @ApiPropertyOptional({ enum: WEBHOOK_TEST_EVENT_TYPES })
  @unlessAbsent
  @IsIn(WEBHOOK_TEST_EVENT_TYPES)
  event_type?: string;
}

const TIMESTAMP_MESSAGE = '$property must be an ISO 8601 timestamp with a time and a zone (Z or +hh:mm)';
/** Date, `T`, time and zone: without a zone a timestamp names a different instant in every zone. */
const DATE_TIME_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/i;

/** An ISO 8601 timestamp with its date, time and offset (or `Z`), as every timestamp of the API. */
const IsTimestamp = () =>
  applyDecorators(IsISO8601({ strict: true, strictSeparator: true }, { message: TIMESTAMP_MESSAGE }), Matches(DATE_TIME_WITH_ZONE, { message: TIMESTAMP_MESSAGE }));

export class RecoverBody {
  @ApiProperty({ format: 'date-time', description: 'Start of the window (inclusive); within the event retention' })
  @IsString()
  @IsTimestamp()
  since!: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'End of the window (exclusive); default now' })
  @unlessAbsent
  @IsString()
  @IsTimestamp()
  until?: string;
}
