import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  Equals,
  IsArray,
  IsDefined,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  registerDecorator,
  ValidateIf,
  ValidateNested,
} from 'class-validator';

export const MAX_AVAILABILITY_SLOTS = 500;
export const MAX_AVAILABILITY_OVERRIDES = 366;
/** The longest span `GET /calendar/availability/windows` computes, in days, both ends included. */
export const MAX_WINDOW_DAYS = 62;
export const DEFAULT_TIMEZONE = 'UTC';
/** `YYYY-MM-DD`; whether it is a real calendar date is checked by `IsCalendarDate`. */
export const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/;
/** IANA names are area/location words (`Europe/Berlin`, `America/Argentina/Buenos_Aires`) or one word (`UTC`); never an offset. */
const IANA_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;
/** `HH:MM:SS` with real hours, minutes and seconds: 00:00:00 through 23:59:59. */
export const TIME_OF_DAY = /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/;
/** Appointment type ids are opaque to us; UUIDs and slugs fit, whitespace and control characters do not. */
export const APPOINTMENT_TYPE_ID = /^[A-Za-z0-9._:-]{1,100}$/;

/**
 * Keeps the value exactly as the client sent it: even if implicit conversion is switched on somewhere,
 * `"1"` must stay a string and fail the integer check instead of becoming 1.
 */
const AsSent = () => Transform(({ obj, key }) => (obj as Record<string, unknown>)[key]);

/** The days a date may name: every instant of them, in any zone, is a timestamp with a four-digit year. */
export const FIRST_CALENDAR_DATE = '0001-01-01';
export const LAST_CALENDAR_DATE = '9998-12-31';

/** A `YYYY-MM-DD` string naming a day that exists (no February 30), from year 1 to year 9998. */
export function isCalendarDate(value: unknown): value is string {
  if (typeof value !== 'string' || !CALENDAR_DATE.test(value)) return false;
  if (value < FIRST_CALENDAR_DATE || value > LAST_CALENDAR_DATE) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
}

/** Whether the runtime's zone database (the one Luxon computes with) knows this IANA name. */
export function isIanaTimeZone(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > 64 || !IANA_NAME.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

function define(name: string, test: (value: unknown) => boolean, message: string) {
  return (target: object, propertyName: string) =>
    registerDecorator({ name, target: target.constructor, propertyName, options: { message }, validator: { validate: test } });
}

const IsCalendarDate = () => define('isCalendarDate', isCalendarDate, `$property must be a real date YYYY-MM-DD from ${FIRST_CALENDAR_DATE} to ${LAST_CALENDAR_DATE}`);
const IsIanaTimeZone = () => define('isIanaTimeZone', isIanaTimeZone, '$property must be an IANA time zone name such as Europe/Berlin or UTC');
/** Optional, but not null: leaving it out is the way to ask for the default. */
const IsOmittable = (property: string) => ValidateIf((object: Record<string, unknown>) => object[property] !== undefined);


export class AvailabilitySlotInput {
  @ApiProperty({ type: 'integer', minimum: 0, maximum: 6, description: '0 = Sunday through 6 = Saturday' })
  @AsSent()
  @IsDefined()
  @IsInt()
  @Min(0)
  @Max(6)
  day_of_week!: number;

  @ApiProperty({ example: '09:00:00', pattern: TIME_OF_DAY.source })
  @AsSent()
  @IsDefined()
  @IsString()
  @Matches(TIME_OF_DAY, { message: '$property must be a time HH:MM:SS from 00:00:00 to 23:59:59' })
  start_time!: string;

  @ApiProperty({ example: '17:00:00', pattern: TIME_OF_DAY.source, description: 'after start_time' })
  @AsSent()
  @IsDefined()
  @IsString()
  @Matches(TIME_OF_DAY, { message: '$property must be a time HH:MM:SS from 00:00:00 to 23:59:59' })
  end_time!: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 100, pattern: APPOINTMENT_TYPE_ID.source })
  @AsSent()
  @IsOptional()
  @IsString()
  @Matches(APPOINTMENT_TYPE_ID, { message: '$property must be 1 to 100 letters, digits or . _ : -' })
  appointment_type_id?: string | null;
}

/** One date's own hours (`start_time`, `end_time`), or the whole date off (`unavailable: true`). */
export class AvailabilityOverrideInput {
  @ApiProperty({ example: '2026-12-24', format: 'date' })
  @AsSent()
  @IsDefined()
  @IsCalendarDate()
  date!: string;

  @ApiPropertyOptional({ example: '09:00:00', pattern: TIME_OF_DAY.source, description: 'with end_time, unless unavailable' })
  @AsSent()
  @ValidateIf((override: AvailabilityOverrideInput) => override.unavailable === undefined || override.start_time !== undefined)
  @IsDefined({ message: '$property is required unless unavailable is true' })
  @IsString()
  @Matches(TIME_OF_DAY, { message: '$property must be a time HH:MM:SS from 00:00:00 to 23:59:59' })
  start_time?: string;

  @ApiPropertyOptional({ example: '13:00:00', pattern: TIME_OF_DAY.source, description: 'after start_time' })
  @AsSent()
  @ValidateIf((override: AvailabilityOverrideInput) => override.unavailable === undefined || override.end_time !== undefined)
  @IsDefined({ message: '$property is required unless unavailable is true' })
  @IsString()
  @Matches(TIME_OF_DAY, { message: '$property must be a time HH:MM:SS from 00:00:00 to 23:59:59' })
  end_time?: string;

  @ApiPropertyOptional({ type: Boolean, enum: [true], description: 'the whole date is off; then no times' })
  @AsSent()
  @IsOmittable('unavailable')
  @Equals(true, { message: '$property must be true when given' })
  unavailable?: true;
}

export class ReplaceAvailabilityBody {
  @ApiProperty({ type: [AvailabilitySlotInput], maxItems: MAX_AVAILABILITY_SLOTS, description: 'the whole weekly set; empty clears' })
  @IsDefined()
  @IsArray()
  @ArrayMaxSize(MAX_AVAILABILITY_SLOTS, { message: `$property must hold at most ${MAX_AVAILABILITY_SLOTS} slots` })
  @ValidateNested({ each: true, message: '$property must be an object' })
  @Type(() => AvailabilitySlotInput)
  schedules!: AvailabilitySlotInput[];

  @ApiPropertyOptional({ example: 'Europe/Berlin', default: DEFAULT_TIMEZONE, description: 'IANA time zone the weekly hours and overrides are in' })
  @AsSent()
  @IsOmittable('timezone')
  @IsString()
  @IsIanaTimeZone()
  timezone?: string;

  @ApiPropertyOptional({ type: [AvailabilityOverrideInput], maxItems: MAX_AVAILABILITY_OVERRIDES, description: 'dates whose hours replace the weekly ones' })
  @IsOmittable('overrides')
  @IsArray()
  @ArrayMaxSize(MAX_AVAILABILITY_OVERRIDES, { message: `$property must hold at most ${MAX_AVAILABILITY_OVERRIDES} overrides` })
  @ValidateNested({ each: true, message: '$property must be an object' })
  @Type(() => AvailabilityOverrideInput)
  overrides?: AvailabilityOverrideInput[];
}

/** The query of `GET /calendar/availability/windows`: dates in the schedule's own zone, both included. */
export class AvailabilityWindowsQuery {
  @ApiProperty({ example: '2026-03-23', format: 'date' })
  @IsDefined()
  @IsString()
  @IsCalendarDate()
  from!: string;

  @ApiProperty({ example: '2026-04-05', format: 'date', description: `on or after from, at most ${MAX_WINDOW_DAYS} days including both` })
  @IsDefined()
  @IsString()
  @IsCalendarDate()
  to!: string;

  @ApiPropertyOptional({ maxLength: 100, pattern: APPOINTMENT_TYPE_ID.source, description: 'only slots of this type and slots without a type' })
  @IsOptional()
  @IsString()
  @Matches(APPOINTMENT_TYPE_ID, { message: '$property must be 1 to 100 letters, digits or . _ : -' })
  appointment_type_id?: string;
}
