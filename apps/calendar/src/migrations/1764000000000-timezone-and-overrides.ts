import { MigrationInterface, QueryRunner } from 'typeorm';

/** The zone an organization's hours are in, and the dates whose hours replace the weekly ones. */
export class TimezoneAndOverrides1764000000000 implements MigrationInterface {
  name = 'TimezoneAndOverrides1764000000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE TABLE calendar.availability_settings (
      organization_id uuid PRIMARY KEY,
      timezone text NOT NULL
    )`);
    // A row without hours is a date off; a row with hours is one range of that date's own hours.
    await db.query(`CREATE TABLE calendar.availability_overrides (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL,
      date date NOT NULL,
      start_time time(0),
      end_time time(0),
      CHECK ((start_time IS NULL) = (end_time IS NULL)),
      CHECK (end_time > start_time)
    )`);
    await db.query('CREATE INDEX availability_overrides_org_date_idx ON calendar.availability_overrides (organization_id, date, start_time)');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE calendar.availability_overrides, calendar.availability_settings');
  }
}
