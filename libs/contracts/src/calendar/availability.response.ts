import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class AvailabilitySlot {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ type: 'integer', minimum: 0, maximum: 6 })
  day_of_week!: number;

  @ApiProperty({ pattern: '^\\d{2}:\\d{2}:\\d{2}$', example: '09:00:00' })
  start_time!: string;

  @ApiProperty({ pattern: '^\\d{2}:\\d{2}:\\d{2}$', example: '17:00:00' })
  end_time!: string;

  @ApiProperty({ type: String, nullable: true })
  appointment_type_id!: string | null;

  @ApiProperty()
  is_active!: boolean;
}

/** A date's own hours, or `unavailable: true` with no hours. */
export class AvailabilityOverride {
  @ApiProperty({ format: 'date', example: '2026-12-24' })
  date!: string;

  @ApiPropertyOptional({ example: '09:00:00' })
  start_time?: string;

  @ApiPropertyOptional({ example: '13:00:00' })
  end_time?: string;

  @ApiPropertyOptional({ type: Boolean, enum: [true] })
  unavailable?: true;
}

/** Answer of both the replace and the read, sent without the success envelope. */
export class AvailabilitySchedules {
  @ApiProperty({ type: [AvailabilitySlot], description: 'sorted by day, then start time' })
  schedules!: AvailabilitySlot[];

  @ApiProperty({ example: 'Europe/Berlin', description: 'IANA time zone of the weekly hours and the overrides' })
  timezone!: string;

  @ApiProperty({ type: [AvailabilityOverride], description: 'sorted by date, then start time' })
  overrides!: AvailabilityOverride[];
}

export class AvailabilityWindow {
  @ApiProperty({ format: 'date-time', example: '2026-03-30T07:00:00.000Z' })
  start!: string;

  @ApiProperty({ format: 'date-time', example: '2026-03-30T15:00:00.000Z' })
  end!: string;
}

/** The open windows in UTC, in time order, without the success envelope. */
export class AvailabilityWindows {
  @ApiProperty({ type: [AvailabilityWindow] })
  windows!: AvailabilityWindow[];
}
