import type { AvailabilityOverride } from '@contracts';
import { daysIncluded, openWindows } from './open-windows';
import type { WeeklySlot } from './weekly-slot';

const everyDay = (start: string, end: string, type: string | null = null): WeeklySlot[] =>
  Array.from({ length: 7 }, (_, day) => ({ day_of_week: day, start_time: start, end_time: end, appointment_type_id: type }));
const windows = (slots: WeeklySlot[], zone: string, from: string, to: string, overrides: AvailabilityOverride[] = [], appointmentTypeId?: string) =>
  openWindows(slots, overrides, zone, { from, to, appointmentTypeId });
const hours = (window: { start: string; end: string }) => (Date.parse(window.end) - Date.parse(window.start)) / 3_600_000;

describe('openWindows across daylight-saving changes', () => {
  it('Europe/Berlin: 09:00 is 08:00Z before the spring change and 07:00Z after it', () => {
    expect(windows(everyDay('09:00:00', '17:00:00'), 'Europe/Berlin', '2026-03-28', '2026-03-30')).toEqual([
      { start: '2026-03-28T08:00:00.000Z', end: '2026-03-28T16:00:00.000Z' },
      { start: '2026-03-29T07:00:00.000Z', end: '2026-03-29T15:00:00.000Z' },
      { start: '2026-03-30T07:00:00.000Z', end: '2026-03-30T15:00:00.000Z' },
    ]);
  });

  it('Europe/Berlin: the night of the spring change is an hour short, the autumn one an hour long', () => {
    const night = everyDay('01:00:00', '04:00:00');
    const [spring] = windows(night, 'Europe/Berlin', '2026-03-29', '2026-03-29');
    expect(spring).toEqual({ start: '2026-03-29T00:00:00.000Z', end: '2026-03-29T02:00:00.000Z' });
    const [autumn] = windows(night, 'Europe/Berlin', '2026-10-25', '2026-10-25');
    expect(autumn).toEqual({ start: '2026-10-24T23:00:00.000Z', end: '2026-10-25T03:00:00.000Z' });
    expect([hours(spring), hours(autumn)]).toEqual([2, 4]);
  });

  it('Europe/Berlin: a skipped time is the jump itself; a repeated time is its first occurrence', () => {
    expect(windows(everyDay('02:10:00', '02:50:00'), 'Europe/Berlin', '2026-03-29', '2026-03-29')).toEqual([]);
    expect(windows(everyDay('01:00:00', '02:30:00'), 'Europe/Berlin', '2026-03-29', '2026-03-29')).toEqual([
      { start: '2026-03-29T00:00:00.000Z', end: '2026-03-29T01:00:00.000Z' },
    ]);
    expect(windows(everyDay('02:30:00', '05:00:00'), 'Europe/Berlin', '2026-03-29', '2026-03-29')).toEqual([
      { start: '2026-03-29T01:00:00.000Z', end: '2026-03-29T03:00:00.000Z' },
    ]);
    expect(windows(everyDay('02:30:00', '03:00:00'), 'Europe/Berlin', '2026-10-25', '2026-10-25')).toEqual([
      { start: '2026-10-25T00:30:00.000Z', end: '2026-10-25T02:00:00.000Z' },
    ]);
  });

  it('America/New_York: spring on 8 March, autumn on 1 November', () => {
    expect(windows(everyDay('09:00:00', '17:00:00'), 'America/New_York', '2026-03-07', '2026-03-08').map((w) => w.start)).toEqual([
      '2026-03-07T14:00:00.000Z',
      '2026-03-08T13:00:00.000Z',
    ]);
    expect(windows(everyDay('09:00:00', '17:00:00'), 'America/New_York', '2026-10-31', '2026-11-01').map((w) => w.start)).toEqual([
      '2026-10-31T13:00:00.000Z',
      '2026-11-01T14:00:00.000Z',
    ]);
    const [autumnNight] = windows(everyDay('00:30:00', '02:30:00'), 'America/New_York', '2026-11-01', '2026-11-01');
    expect(hours(autumnNight)).toBe(3);
  });

  it('Australia/Sydney: autumn on 5 April, spring on 4 October (southern seasons)', () => {
    expect(windows(everyDay('09:00:00', '17:00:00'), 'Australia/Sydney', '2026-04-04', '2026-04-05').map((w) => w.start)).toEqual([
      '2026-04-03T22:00:00.000Z',
      '2026-04-04T23:00:00.000Z',
    ]);
    expect(windows(everyDay('09:00:00', '17:00:00'), 'Australia/Sydney', '2026-10-03', '2026-10-04').map((w) => w.start)).toEqual([
      '2026-10-02T23:00:00.000Z',
      '2026-10-03T22:00:00.000Z',
    ]);
    const [springNight] = windows(everyDay('01:00:00', '04:00:00'), 'Australia/Sydney', '2026-10-04', '2026-10-04');
    expect(hours(springNight)).toBe(2);
  });

  it('Asia/Kolkata: half an hour off UTC all year', () => {
    for (const date of ['2026-01-15', '2026-07-15']) {
      expect(windows(everyDay('09:00:00', '17:30:00'), 'Asia/Kolkata', date, date)).toEqual([
        { start: `${date}T03:30:00.000Z`, end: `${date}T12:00:00.000Z` },
      ]);
    }
  });
});

describe('openWindows with overrides and appointment types', () => {
  const week: WeeklySlot[] = [
    { day_of_week: 1, start_time: '09:00:00', end_time: '12:00:00', appointment_type_id: null },
    { day_of_week: 1, start_time: '12:00:00', end_time: '13:00:00', appointment_type_id: 'consult' },
    { day_of_week: 1, start_time: '14:00:00', end_time: '15:00:00', appointment_type_id: 'other' },
  ];

  it('merges touching slots and keeps weekdays apart (2026-06-01 is a Monday)', () => {
    expect(windows(week, 'UTC', '2026-05-31', '2026-06-02')).toEqual([
      { start: '2026-06-01T09:00:00.000Z', end: '2026-06-01T13:00:00.000Z' },
      { start: '2026-06-01T14:00:00.000Z', end: '2026-06-01T15:00:00.000Z' },
    ]);
  });

  it('takes the slots of the asked type and those without one', () => {
    expect(windows(week, 'UTC', '2026-06-01', '2026-06-01', [], 'other')).toEqual([
      { start: '2026-06-01T09:00:00.000Z', end: '2026-06-01T12:00:00.000Z' },
      { start: '2026-06-01T14:00:00.000Z', end: '2026-06-01T15:00:00.000Z' },
    ]);
  });

  it('replaces a date\'s weekly hours with its override, and opens nothing on a date off', () => {
    const overrides: AvailabilityOverride[] = [
      { date: '2026-06-01', start_time: '10:00:00', end_time: '11:00:00' },
      { date: '2026-06-08', unavailable: true },
      { date: '2026-06-09', start_time: '08:00:00', end_time: '09:00:00' },
    ];
    expect(windows(week, 'Europe/Berlin', '2026-06-01', '2026-06-09', overrides)).toEqual([
      { start: '2026-06-01T08:00:00.000Z', end: '2026-06-01T09:00:00.000Z' },
      { start: '2026-06-09T06:00:00.000Z', end: '2026-06-09T07:00:00.000Z' },
    ]);
  });
});

describe('daysIncluded', () => {
  it('counts both ends, across months and leap days', () => {
    expect(daysIncluded('2026-01-01', '2026-01-01')).toBe(1);
    expect(daysIncluded('2028-02-28', '2028-03-01')).toBe(3);
    expect(daysIncluded('2026-03-01', '2026-05-01')).toBe(62);
    expect(daysIncluded('2026-03-02', '2026-03-01')).toBe(0);
  });
});
