import 'reflect-metadata';
import { ReplaceAvailabilityBody } from '@contracts';
import { AppError, ErrorCode, validateInput, validationErrorFrom } from '@platform/errors';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { parseAvailability } from './availability-input';

/**
 * A body as the service takes it: through the contract class (what its validation pipe runs), then the
 * rules across slots and overrides. Both throw synchronously; as a promise, a refusal and an answer read alike below.
 */
const take = (body: unknown) => parseAvailability(validateInput(ReplaceAvailabilityBody, body));
const parse = async (body: unknown) => take(body).slots;

const valid = { day_of_week: 1, start_time: '09:00:00', end_time: '17:00:00' };

async function failure(body: unknown): Promise<{ field: string; reason: string }> {
  const error = await parse(body).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe(ErrorCode.ValidationError);
  return (error as AppError).details as { field: string; reason: string };
}

async function fieldOf(body: unknown): Promise<string> {
  return (await failure(body)).field;
}

describe('parseAvailability: the weekly slots', () => {
  it('accepts a valid set and fills a missing appointment type with null', async () => {
    await expect(parse({ schedules: [valid, { ...valid, day_of_week: 2, appointment_type_id: 'consultation' }] })).resolves.toEqual([
      { ...valid, appointment_type_id: null },
      { ...valid, day_of_week: 2, appointment_type_id: 'consultation' },
    ]);
  });

  it('accepts an empty array, which clears the week', async () => {
    await expect(parse({ schedules: [] })).resolves.toEqual([]);
  });

  it('needs schedules to be present and an array', async () => {
    expect(await fieldOf({})).toBe('schedules');
    expect(await fieldOf({ schedules: null })).toBe('schedules');
    expect(await fieldOf({ schedules: { 0: valid } })).toBe('schedules');
    expect(await fieldOf({ schedules: 'monday' })).toBe('schedules');
    expect(await fieldOf(null)).toBe('body');
    expect(await fieldOf([valid])).toBe('body');
  });

  it('needs every entry to be an object', async () => {
    for (const entry of [5, 'x', null, true, [], [valid]]) {
      expect(await failure({ schedules: [valid, entry] })).toEqual({ field: 'schedules[1]', reason: 'must be an object' });
    }
    expect(await failure({ schedules: [], overrides: [[]] })).toEqual({ field: 'overrides[0]', reason: 'must be an object' });
  });

  it('takes day_of_week only as an integer 0..6', async () => {
    for (const day of [0, 6]) await expect(parse({ schedules: [{ ...valid, day_of_week: day }] })).resolves.toHaveLength(1);
    for (const day of [-1, 7, 1.5, '1', '', null, true, [1], { value: 1 }, 1e309, Number.MAX_SAFE_INTEGER + 2]) {
      expect(await fieldOf({ schedules: [{ ...valid, day_of_week: day }] })).toBe('schedules[0].day_of_week');
    }
    const { day_of_week: _missing, ...withoutDay } = valid;
    expect(await fieldOf({ schedules: [withoutDay] })).toBe('schedules[0].day_of_week');
  });

  it('takes times only as HH:MM:SS from 00:00:00 to 23:59:59', async () => {
    const good = [
      ['00:00:00', '00:00:01'],
      ['23:59:58', '23:59:59'],
      ['19:59:59', '20:00:00'],
    ];
    for (const [start, end] of good) {
      await expect(parse({ schedules: [{ ...valid, start_time: start, end_time: end }] })).resolves.toHaveLength(1);
    }
    const bad = ['24:00:00', '09:60:00', '09:00:60', '9:00:00', '09:00', '09:00:00.000', '09:00:00Z', ' 09:00:00', '09-00-00', '', 900, null, ['09:00:00']];
    for (const time of bad) {
      expect(await fieldOf({ schedules: [{ ...valid, start_time: time }] })).toBe('schedules[0].start_time');
      expect(await fieldOf({ schedules: [{ ...valid, end_time: time }] })).toBe('schedules[0].end_time');
    }
  });

  it('needs the end after the start', async () => {
    expect(await failure({ schedules: [valid, { ...valid, day_of_week: 2, end_time: '09:00:00' }] })).toEqual({
      field: 'schedules[1].end_time',
      reason: 'must be after start_time',
    });
  });

  it('refuses overlapping slots of one day and appointment type', async () => {
    expect(await fieldOf({ schedules: [valid, { ...valid, start_time: '16:59:59', end_time: '18:00:00' }] })).toBe('schedules[1].start_time');
    await expect(parse({ schedules: [valid, { ...valid, start_time: '17:00:00', end_time: '18:00:00' }] })).resolves.toHaveLength(2);
    await expect(parse({ schedules: [valid, { ...valid, appointment_type_id: 'x' }] })).resolves.toHaveLength(2);
  });

  it('takes appointment_type_id as an optional id of 1..100 safe characters', async () => {
    for (const id of ['a', 'A'.repeat(100), '3f9a0c2e-0d1b-4a51-9a0e-0d5c2f1e7b44', 'consult_60:v1.2', null]) {
      await expect(parse({ schedules: [{ ...valid, appointment_type_id: id }] })).resolves.toHaveLength(1);
    }
    for (const id of ['', 'A'.repeat(101), 'has space', 'line\nbreak', 'é', 42, {}, ['a']]) {
      expect(await fieldOf({ schedules: [{ ...valid, appointment_type_id: id }] })).toBe('schedules[0].appointment_type_id');
    }
  });

  it('names unknown properties of a slot and of the body', async () => {
    expect(await failure({ schedules: [valid, { ...valid, is_active: false }] })).toEqual({
      field: 'schedules[1].is_active',
      reason: expect.stringContaining('should not exist'),
    });
    expect(await fieldOf({ schedules: [valid], time_zone: 'UTC' })).toBe('time_zone');
    expect(await fieldOf({ schedules: [{ ...valid, id: '3f9a0c2e-0d1b-4a51-9a0e-0d5c2f1e7b44' }] })).toBe('schedules[0].id');
  });

  it('allows at most 500 slots', async () => {
    const slots = (count: number) =>
      Array.from({ length: count }, (_, i) => ({ ...valid, start_time: '09:00:00', end_time: '10:00:00', appointment_type_id: `t${i}` }));
    await expect(parse({ schedules: slots(500) })).resolves.toHaveLength(500);
    expect(await failure({ schedules: slots(501) })).toEqual({ field: 'schedules', reason: 'must hold at most 500 slots' });
  });
});

describe('parseAvailability: time zone and overrides', () => {
  it('defaults to UTC and no overrides, and keeps a zone as it was given', () => {
    expect(take({ schedules: [valid] })).toMatchObject({ timezone: 'UTC', overrides: [] });
    for (const timezone of ['Europe/Berlin', 'Asia/Kolkata', 'America/Argentina/Buenos_Aires', 'Etc/GMT+5']) {
      expect(take({ schedules: [], timezone }).timezone).toBe(timezone);
    }
  });

  it('refuses an unknown zone, an offset and a non-string, naming timezone', async () => {
    for (const timezone of ['Mars/Olympus_Mons', '+05:30', 'UTC+2', '', 'Europe/', 42, null, ['UTC']]) {
      expect(await failure({ schedules: [], timezone })).toEqual({ field: 'timezone', reason: expect.any(String) });
    }
  });

  it('accepts dates with their own hours and dates off', () => {
    const overrides = [
      { date: '2026-12-24', start_time: '09:00:00', end_time: '12:00:00' },
      { date: '2026-12-24', start_time: '13:00:00', end_time: '15:00:00' },
      { date: '2026-12-25', unavailable: true },
    ];
    expect(take({ schedules: [], overrides }).overrides).toEqual(overrides);
  });

  it('names the offending override and field', async () => {
    const ok = { date: '2026-12-24', start_time: '09:00:00', end_time: '12:00:00' };
    const cases: [unknown, string][] = [
      [{ ...ok, date: '2026-02-30' }, 'overrides[1].date'],
      [{ ...ok, date: '24.12.2026' }, 'overrides[1].date'],
      [{ ...ok, date: '0000-01-01' }, 'overrides[1].date'],
      [{ ...ok, date: '9999-12-31' }, 'overrides[1].date'],
      [{ start_time: '09:00:00', end_time: '12:00:00' }, 'overrides[1].date'],
      [{ date: '2026-12-25' }, 'overrides[1].start_time'],
      [{ date: '2026-12-25', start_time: '09:00:00' }, 'overrides[1].end_time'],
      [{ ...ok, date: '2026-12-25', end_time: '08:00:00' }, 'overrides[1].end_time'],
      [{ ...ok, date: '2026-12-25', start_time: '25:00:00' }, 'overrides[1].start_time'],
      [{ date: '2026-12-25', unavailable: false }, 'overrides[1].unavailable'],
      [{ date: '2026-12-25', unavailable: 'true' }, 'overrides[1].unavailable'],
      [{ date: '2026-12-25', unavailable: null }, 'overrides[1].unavailable'],
      [{ date: '2026-12-25', unavailable: true, start_time: '09:00:00' }, 'overrides[1].start_time'],
      [{ date: '2026-12-25', unavailable: true, end_time: '09:00:00' }, 'overrides[1].end_time'],
      [{ ...ok, start_time: '11:00:00', end_time: '13:00:00' }, 'overrides[1].start_time'],
      [{ date: '2026-12-24', unavailable: true }, 'overrides[1].date'],
      [{ ...ok, date: '2026-12-25', note: 'x' }, 'overrides[1].note'],
      ['2026-12-25', 'overrides[1]'],
    ];
    for (const [second, field] of cases) expect(await fieldOf({ schedules: [], overrides: [ok, second] })).toBe(field);
    expect(await fieldOf({ schedules: [], overrides: { date: '2026-12-24' } })).toBe('overrides');
    expect(await fieldOf({ schedules: [], overrides: null })).toBe('overrides');
  });

  it('allows at most 366 overrides', async () => {
    const days = (count: number) => Array.from({ length: count }, (_, i) => ({ date: new Date(Date.UTC(2027, 0, 1 + i)).toISOString().slice(0, 10), unavailable: true }));
    expect(take({ schedules: [], overrides: days(366) }).overrides).toHaveLength(366);
    expect(await failure({ schedules: [], overrides: days(367) })).toEqual({ field: 'overrides', reason: 'must hold at most 366 overrides' });
  });
});

describe('ReplaceAvailabilityBody under implicit conversion', () => {
  it('still refuses "1" as a day and 900 as a time', async () => {
    for (const slot of [{ ...valid, day_of_week: '1' }, { ...valid, start_time: 900 }]) {
      const body = plainToInstance(ReplaceAvailabilityBody, { schedules: [slot] }, { enableImplicitConversion: true });
      const errors = await validate(body, { whitelist: true, forbidNonWhitelisted: true });
      expect(validationErrorFrom(errors).details).toEqual({ field: expect.stringMatching(/^schedules\[0\]\.(day_of_week|start_time)$/), reason: expect.any(String) });
    }
  });
});
