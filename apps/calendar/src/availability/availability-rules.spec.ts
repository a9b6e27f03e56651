import { AppError, ErrorCode } from '@platform/errors';
import { assertConsistentWeek } from './availability-rules';
import type { WeeklySlot } from './weekly-slot';

function slot(day: number, start: string, end: string, type: string | null = null): WeeklySlot {
  return { day_of_week: day, start_time: start, end_time: end, appointment_type_id: type };
}

function clock(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(11, 19);
}

function failure(slots: WeeklySlot[]): { field: string; reason: string } {
  try {
    assertConsistentWeek(slots);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe(ErrorCode.ValidationError);
    return (error as AppError).details as { field: string; reason: string };
  }
  throw new Error('expected a validation error');
}

describe('assertConsistentWeek', () => {
  it('accepts an empty week and a realistic one', () => {
    expect(() => assertConsistentWeek([])).not.toThrow();
    expect(() =>
      assertConsistentWeek([slot(1, '09:00:00', '12:00:00'), slot(1, '13:00:00', '17:00:00'), slot(2, '09:00:00', '17:00:00')]),
    ).not.toThrow();
  });

  it('needs the end after the start, to the second', () => {
    expect(failure([slot(0, '09:00:00', '09:00:00')]).field).toBe('schedules[0].end_time');
    expect(failure([slot(0, '10:00:00', '09:59:59')]).field).toBe('schedules[0].end_time');
    expect(() => assertConsistentWeek([slot(0, '09:00:00', '09:00:01')])).not.toThrow();
    expect(() => assertConsistentWeek([slot(6, '00:00:00', '23:59:59')])).not.toThrow();
  });

  it('lets slots touch: one ending when the next starts is no overlap', () => {
    expect(() => assertConsistentWeek([slot(3, '09:00:00', '10:00:00'), slot(3, '10:00:00', '11:00:00')])).not.toThrow();
    expect(() => assertConsistentWeek([slot(3, '10:00:00', '11:00:00'), slot(3, '09:00:00', '10:00:00')])).not.toThrow();
  });

  it('refuses overlaps by one second, containment and duplicates, naming the later slot', () => {
    const bySecond = failure([slot(3, '09:00:00', '10:00:01'), slot(3, '10:00:00', '11:00:00')]);
    expect(bySecond).toEqual({ field: 'schedules[1].start_time', reason: expect.stringContaining('schedules[0]') });
    expect(failure([slot(3, '08:00:00', '18:00:00'), slot(3, '12:00:00', '13:00:00')]).field).toBe('schedules[1].start_time');
    expect(failure([slot(3, '12:00:00', '13:00:00'), slot(3, '08:00:00', '18:00:00')]).field).toBe('schedules[1].start_time');
    expect(failure([slot(4, '09:00:00', '10:00:00'), slot(4, '09:00:00', '10:00:00')]).field).toBe('schedules[1].start_time');
  });

  it('reports the first offending slot in request order', () => {
    const week = [
      slot(1, '09:00:00', '10:00:00'),
      slot(2, '09:00:00', '10:00:00'),
      slot(1, '09:30:00', '10:30:00'),
      slot(5, '11:00:00', '10:00:00'),
    ];
    expect(failure(week)).toEqual({ field: 'schedules[2].start_time', reason: expect.stringContaining('schedules[0]') });
    expect(failure([slot(5, '11:00:00', '10:00:00'), ...week.slice(0, 3)]).field).toBe('schedules[0].end_time');
  });

  it('compares only slots of the same day and the same appointment type', () => {
    expect(() =>
      assertConsistentWeek([
        slot(1, '09:00:00', '12:00:00'),
        slot(2, '09:00:00', '12:00:00'),
        slot(1, '09:00:00', '12:00:00', 'consultation'),
        slot(1, '10:00:00', '11:00:00', 'follow-up'),
      ]),
    ).not.toThrow();
    expect(failure([slot(1, '09:00:00', '12:00:00', 'consultation'), slot(1, '11:00:00', '13:00:00', 'consultation')]).field).toBe(
      'schedules[1].start_time',
    );
  });

  it('checks the worst case, 500 slots of one day and type, quickly', () => {
    const crowded = Array.from({ length: 500 }, (_, i) => slot(0, clock(i * 60), clock(i * 60 + 30)));
    const started = performance.now();
    assertConsistentWeek(crowded);
    expect(performance.now() - started).toBeLessThan(200);
    expect(failure([...crowded.slice(0, 499), slot(0, clock(498 * 60 + 29), clock(498 * 60 + 31))]).field).toBe('schedules[499].start_time');
  });
});
