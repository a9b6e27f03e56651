import type { Schema } from '@org-data-platform/sdk';

export const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

export interface SlotDraft {
  key: number;
  day_of_week: number;
  start_time: string;
  end_time: string;
  appointment_type_id?: string | null;
}

export interface OverrideDraft {
  key: number;
  date: string;
  unavailable: boolean;
  start_time: string;
  end_time: string;
}

let drafted = 0;
export const nextKey = () => (drafted += 1);

/** `HH:MM` from a time input becomes the API's `HH:MM:SS`. */
export const fullTime = (time: string) => (time.length === 5 ? `${time}:00` : time);

export function draftsOf(stored: Schema<'AvailabilitySchedules'>): { slots: SlotDraft[]; overrides: OverrideDraft[] } {
  return {
    slots: stored.schedules.map((slot) => ({ key: nextKey(), day_of_week: slot.day_of_week, start_time: slot.start_time, end_time: slot.end_time, appointment_type_id: slot.appointment_type_id })),
    overrides: (stored.overrides ?? []).map((override) => ({
      key: nextKey(),
      date: override.date,
      unavailable: override.unavailable === true,
      start_time: override.start_time ?? '09:00:00',
      end_time: override.end_time ?? '17:00:00',
    })),
  };
}

/** The whole set for PUT, slots and overrides in the editor's order (errors name them by that index). */
export function bodyOf(timezone: string, slots: SlotDraft[], overrides: OverrideDraft[]): Schema<'ReplaceAvailabilityBody'> {
  return {
    timezone,
    schedules: slots.map((slot) => ({
      day_of_week: slot.day_of_week,
      start_time: fullTime(slot.start_time),
      end_time: fullTime(slot.end_time),
      ...(slot.appointment_type_id ? { appointment_type_id: slot.appointment_type_id } : {}),
    })),
    overrides: overrides.map((override) =>
      override.unavailable ? { date: override.date, unavailable: true } : { date: override.date, start_time: fullTime(override.start_time), end_time: fullTime(override.end_time) },
    ),
  };
}

/** `YYYY-MM-DD` of a moment in a time zone. */
export function dateIn(timeZone: string, at: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

export function addDays(date: string, days: number): string {
  const moment = new Date(`${date}T12:00:00Z`);
  moment.setUTCDate(moment.getUTCDate() + days);
  return moment.toISOString().slice(0, 10);
}

export function timeZones(): string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return zones.includes('UTC') ? zones : ['UTC', ...zones];
}
