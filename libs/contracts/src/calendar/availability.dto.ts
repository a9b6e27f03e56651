import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsDefined, IsInt, IsOptional, IsString, Matches, Max, Min, ValidateNested } from 'class-validator';

export const MAX_AVAILABILITY_SLOTS = 500;
/** `HH:MM:SS` with real hours, minutes and seconds: 00:00:00 through 23:59:59. */
export const TIME_OF_DAY = /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/;
/** Appointment type ids are opaque to us; UUIDs and slugs fit, whitespace and control characters do not. */
export const APPOINTMENT_TYPE_ID = /^[A-Za-z0-9._:-]{1,100}$/;

/**
 * Keeps the value exactly as the client sent it: even if implicit conversion is switched on somewhere,
 * `"1"` must stay a string and fail the integer check instead of becoming 1.
 */
const AsSent = () => Transform(({ obj, key }) => (obj as Record<string, unknown>)[key]);

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

export class ReplaceAvailabilityBody {
  @ApiProperty({ type: [AvailabilitySlotInput], maxItems: MAX_AVAILABILITY_SLOTS, description: 'the whole weekly set; empty clears' })
  @IsDefined()
  @IsArray()
  @ArrayMaxSize(MAX_AVAILABILITY_SLOTS, { message: `$property must hold at most ${MAX_AVAILABILITY_SLOTS} slots` })
  @ValidateNested({ each: true, message: '$property must be an object' })
  @Type(() => AvailabilitySlotInput)
  schedules!: AvailabilitySlotInput[];
}
