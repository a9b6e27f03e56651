import type { AvailabilityOverride } from '@contracts';

/** One slot of the weekly availability as the service stores it; times are `HH:MM:SS`. */
export interface WeeklySlot {
  day_of_week: number;
  start_time: string;
  end_time: string;
  appointment_type_id: string | null;
}

/** Everything one PUT replaces: the weekly slots, the zone they are in, and the dates with their own hours. */
export interface Availability {
  slots: WeeklySlot[];
  timezone: string;
  overrides: AvailabilityOverride[];
}
