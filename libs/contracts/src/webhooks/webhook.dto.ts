import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayNotEmpty, ArrayUnique, IsArray, IsBoolean, IsIn, IsString, IsUUID, Length, Matches, ValidateIf } from 'class-validator';
import { EVENT_KINDS } from '../events';
import { PageQuery } from '../pagination';
import { WEBHOOK_TEST_EVENT } from './webhook-views';
import { IsWebhookUrl } from './webhook-url.validator';

const NOT_BLANK = /\S/;
/** Optional in a PATCH, but `null` is not a value: absent means unchanged. */
const unlessAbsent = ValidateIf((_: object, value: unknown) => value !== undefined);

export class CreateWebhookBody {
  @ApiProperty({ minLength: 1, maxLength: 100, example: 'Orders sync' })
  @IsString()
  @Length(1, 100)
  @Matches(NOT_BLANK, { message: 'name must not be blank' })
  name!: string;

  @ApiProperty({ example: 'https://example.com/hooks/platform', description: 'Absolute http(s) URL; private and reserved addresses are refused' })
  @IsString()
  @IsWebhookUrl()
  url!: string;

  @ApiProperty({ enum: EVENT_KINDS, isArray: true, example: ['row.created'] })
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(EVENT_KINDS.length)
  @ArrayUnique()
  @IsIn(EVENT_KINDS, { each: true })
  events!: string[];
}

export class UpdateWebhookBody {
  @ApiPropertyOptional({ minLength: 1, maxLength: 100 })
  @unlessAbsent
  @IsString()
  @Length(1, 100)
  @Matches(NOT_BLANK, { message: 'name must not be blank' })
  name?: string;

  @ApiPropertyOptional()
  @unlessAbsent
  @IsString()
  @IsWebhookUrl()
  url?: string;

  @ApiPropertyOptional({ enum: EVENT_KINDS, isArray: true })
  @unlessAbsent
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(EVENT_KINDS.length)
  @ArrayUnique()
  @IsIn(EVENT_KINDS, { each: true })
  events?: string[];

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

/** The path id every per-webhook message carries. */
export class WebhookIdParams {
  @IsUUID()
  webhookId!: string;
}

export class UpdateWebhookParams extends UpdateWebhookBody {
  @IsUUID()
  webhookId!: string;
}

export class WebhookDeliveriesParams extends PageQuery {
  @IsUUID()
  webhookId!: string;
}

export class TestWebhookParams extends TestWebhookBody {
  @IsUUID()
  webhookId!: string;
}
