import { Injectable } from '@nestjs/common';
import { AvailabilityOverride, AvailabilitySchedules, AvailabilitySlot, DEFAULT_TIMEZONE } from '@contracts';
import { Database, Sql } from '@platform/persistence';
import { AVAILABILITY_OVERRIDES_TABLE, AVAILABILITY_SETTINGS_TABLE, AVAILABILITY_SLOTS_TABLE } from '../calendar-schema';
import type { Availability } from './weekly-slot';

/** First key of the two-key advisory lock, so these locks never meet another context's. */
const REPLACE_LOCK_NAMESPACE = 0x63616c; // "cal"

interface SlotRow {
  id: string;
  day_of_week: number;
  start_time: string;
  end_time: string;
  appointment_type_id: string | null;
}

interface OverrideRow {
  date: string;
  start_time: string | null;
  end_time: string | null;
}

function toSlot(row: SlotRow): AvailabilitySlot {
  // The replace request has no way to switch a slot off: every stored slot is active.
  return { ...row, is_active: true };
}

function toOverride(row: OverrideRow): AvailabilityOverride {
  return row.start_time === null ? { date: row.date, unavailable: true } : { date: row.date, start_time: row.start_time, end_time: row.end_time as string };
}

@Injectable()
export class AvailabilityRepository {
  constructor(private readonly database: Database) {}

  /**
   * Replaces the organization's whole availability in one transaction. Replacements of one organization
   * queue on an advisory lock before deleting: under READ COMMITTED two unserialized delete-then-insert
   * runs would each miss the other's fresh rows and leave both sets.
   */
  async replace(organizationId: string, availability: Availability): Promise<AvailabilitySchedules> {
    const { slots, timezone, overrides } = availability;
    return this.database.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [REPLACE_LOCK_NAMESPACE, organizationId]);
      await tx.query(`DELETE FROM ${AVAILABILITY_SLOTS_TABLE} WHERE organization_id = $1`, [organizationId]);
      if (slots.length > 0) {
        await tx.query(
          `INSERT INTO ${AVAILABILITY_SLOTS_TABLE} (organization_id, day_of_week, start_time, end_time, appointment_type_id)
           SELECT $1, slot.day_of_week, slot.start_time, slot.end_time, slot.appointment_type_id
           FROM unnest($2::smallint[], $3::time[], $4::time[], $5::text[])
             AS slot(day_of_week, start_time, end_time, appointment_type_id)`,
          [
            organizationId,
            slots.map((slot) => slot.day_of_week),
            slots.map((slot) => slot.start_time),
            slots.map((slot) => slot.end_time),
            slots.map((slot) => slot.appointment_type_id),
          ],
        );
      }
      await tx.query(
        `INSERT INTO ${AVAILABILITY_SETTINGS_TABLE} (organization_id, timezone) VALUES ($1, $2)
         ON CONFLICT (organization_id) DO UPDATE SET timezone = EXCLUDED.timezone`,
        [organizationId, timezone],
      );
      await tx.query(`DELETE FROM ${AVAILABILITY_OVERRIDES_TABLE} WHERE organization_id = $1`, [organizationId]);
      if (overrides.length > 0) {
        await tx.query(
          `INSERT INTO ${AVAILABILITY_OVERRIDES_TABLE} (organization_id, date, start_time, end_time)
           SELECT $1, override.date, override.start_time, override.end_time
           FROM unnest($2::date[], $3::time[], $4::time[]) AS override(date, start_time, end_time)`,
          [
            organizationId,
            overrides.map((override) => override.date),
            overrides.map((override) => override.start_time ?? null),
            overrides.map((override) => override.end_time ?? null),
          ],
        );
      }
      return this.readWith(tx, organizationId);
    });
  }

  async read(organizationId: string): Promise<AvailabilitySchedules> {
    return this.readWith(this.database, organizationId);
  }

  private async readWith(db: Sql, organizationId: string): Promise<AvailabilitySchedules> {
    const [{ rows: slots }, { rows: settings }, { rows: overrides }] = await Promise.all([
      db.query<SlotRow>(
        `SELECT id, day_of_week, start_time::text AS start_time, end_time::text AS end_time, appointment_type_id
         FROM ${AVAILABILITY_SLOTS_TABLE}
         WHERE organization_id = $1
         ORDER BY day_of_week, start_time, end_time, appointment_type_id NULLS FIRST, id`,
        [organizationId],
      ),
      db.query<{ timezone: string }>(`SELECT timezone FROM ${AVAILABILITY_SETTINGS_TABLE} WHERE organization_id = $1`, [organizationId]),
      db.query<OverrideRow>(
        `SELECT date::text AS date, start_time::text AS start_time, end_time::text AS end_time
         FROM ${AVAILABILITY_OVERRIDES_TABLE}
         WHERE organization_id = $1
         ORDER BY date, start_time NULLS FIRST`,
        [organizationId],
      ),
    ]);
    return { schedules: slots.map(toSlot), timezone: settings[0]?.timezone ?? DEFAULT_TIMEZONE, overrides: overrides.map(toOverride) };
  }
}
