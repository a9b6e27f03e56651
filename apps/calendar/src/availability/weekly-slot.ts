/** One slot of the weekly availability as the service stores it; times are `HH:MM:SS`. */
export interface WeeklySlot {
  day_of_week: number;
  start_time: string;
  end_time: string;
  appointment_type_id: string | null;
}
