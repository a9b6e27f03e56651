import { ApiProperty } from '@nestjs/swagger';

export class AvailabilitySlot {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ type: 'integer', minimum: 0, maximum: 6 })
  day_of_week!: number;

  @ApiProperty({ example: '09:00:00' })
  start_time!: string;

  @ApiProperty({ example: '17:00:00' })
  end_time!: string;

  @ApiProperty({ type: String, nullable: true })
  appointment_type_id!: string | null;

  @ApiProperty()
  is_active!: boolean;
}

/** Answer of both the replace and the read, sent without the success envelope. */
export class AvailabilitySchedules {
  @ApiProperty({ type: [AvailabilitySlot], description: 'sorted by day, then start time' })
  schedules!: AvailabilitySlot[];
}
