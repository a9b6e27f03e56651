import { Injectable } from '@nestjs/common';
import type { AvailabilitySlot } from '@contracts';
import { DataSource, EntityManager } from 'typeorm';
import type { WeeklySlot } from './weekly-slot';

/** First key of the two-key advisory lock, so these locks never meet another context's. */
const REPLACE_LOCK_NAMESPACE = 0x63616c; // "cal"

interface SlotRow {
  id: string;
  day_of_week: number;
  start_time: string;
  end_time: string;
  appointment_type_id: string | null;
}

function toSlot(row: SlotRow): AvailabilitySlot {
  // The replace request has no way to switch a slot off: every stored slot is active.
  return { ...row, is_active: true };
}

@Injectable()
export class AvailabilityRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Replaces the organization's whole set in one transaction. Replacements of one organization queue on
   * an advisory lock before deleting: under READ COMMITTED two unserialized delete-then-insert runs would
   * each miss the other's fresh rows and leave both sets.
   */
  async replace(organizationId: string, slots: readonly WeeklySlot[]): Promise<AvailabilitySlot[]> {
    return this.dataSource.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [REPLACE_LOCK_NAMESPACE, organizationId]);
      await tx.query('DELETE FROM calendar.availability_slots WHERE organization_id = $1', [organizationId]);
      if (slots.length > 0) {
        await tx.query(
          `INSERT INTO calendar.availability_slots (organization_id, day_of_week, start_time, end_time, appointment_type_id)
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
      return this.listWith(tx, organizationId);
    });
  }

  async list(organizationId: string): Promise<AvailabilitySlot[]> {
    return this.listWith(this.dataSource.manager, organizationId);
  }

  private async listWith(db: EntityManager, organizationId: string): Promise<AvailabilitySlot[]> {
    const rows: SlotRow[] = await db.query(
      `SELECT id, day_of_week, start_time::text AS start_time, end_time::text AS end_time, appointment_type_id
       FROM calendar.availability_slots
       WHERE organization_id = $1
       ORDER BY day_of_week, start_time, end_time, appointment_type_id NULLS FIRST, id`,
      [organizationId],
    );
    return rows.map(toSlot);
  }
}
