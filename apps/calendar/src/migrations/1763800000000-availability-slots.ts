import { MigrationInterface, QueryRunner } from 'typeorm';

export class AvailabilitySlots1763800000000 implements MigrationInterface {
  name = 'AvailabilitySlots1763800000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE TABLE calendar.availability_slots (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL,
      day_of_week smallint NOT NULL CHECK (day_of_week BETWEEN 0 AND 6),
      start_time time(0) NOT NULL,
      end_time time(0) NOT NULL CHECK (end_time > start_time),
      appointment_type_id text CHECK (char_length(appointment_type_id) BETWEEN 1 AND 100),
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await db.query(
      'CREATE INDEX availability_slots_org_day_start_idx ON calendar.availability_slots (organization_id, day_of_week, start_time)',
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE calendar.availability_slots');
  }
}
