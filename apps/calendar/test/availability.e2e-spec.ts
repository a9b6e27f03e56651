import 'reflect-metadata';
import { admin, ApiClient, apiClient, createTestOrg, startProcess } from '@platform/testing';

interface SlotIn {
  day_of_week: unknown;
  start_time: unknown;
  end_time: unknown;
  appointment_type_id?: unknown;
  [extra: string]: unknown;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const slot = (day: number, start: string, end: string, type?: string): SlotIn =>
  type === undefined ? { day_of_week: day, start_time: start, end_time: end } : { day_of_week: day, start_time: start, end_time: end, appointment_type_id: type };
const clock = (seconds: number) => new Date(seconds * 1000).toISOString().slice(11, 19);

/** What a stored slot says, without its id: to compare a stored set with a submitted one. */
function essence(slots: { day_of_week: unknown; start_time: unknown; end_time: unknown; appointment_type_id?: unknown }[]): string[] {
  return slots
    .map((s) => JSON.stringify([s.day_of_week, s.start_time, s.end_time, s.appointment_type_id ?? null]))
    .sort();
}

async function newOrgClient(scopes = '*'): Promise<{ orgId: string; api: ApiClient }> {
  const org = await createTestOrg({ scopes });
  return { orgId: org.orgId, api: apiClient(org.key) };
}

describe('PUT and GET /calendar/availability', () => {
  let api: ApiClient;

  beforeAll(async () => {
    ({ api } = await newOrgClient());
  });

  it('answers the replaced set bare, sorted by day, start, end and appointment type', async () => {
    const res = await api.put('/calendar/availability', {
      schedules: [
        slot(5, '09:00:00', '12:00:00'),
        slot(1, '13:00:00', '17:00:00'),
        slot(1, '09:00:00', '12:00:00', 'consultation'),
        slot(1, '09:00:00', '10:00:00'),
        slot(0, '23:00:00', '23:59:59'),
        slot(1, '09:00:00', '11:00:00', 'follow-up'),
      ],
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['schedules', 'timezone', 'overrides']);
    expect(res.body).toMatchObject({ timezone: 'UTC', overrides: [] });
    expect(res.body.schedules.map((s: SlotIn) => [s.day_of_week, s.start_time, s.end_time, s.appointment_type_id])).toEqual([
      [0, '23:00:00', '23:59:59', null],
      [1, '09:00:00', '10:00:00', null],
      [1, '09:00:00', '11:00:00', 'follow-up'],
      [1, '09:00:00', '12:00:00', 'consultation'],
      [1, '13:00:00', '17:00:00', null],
      [5, '09:00:00', '12:00:00', null],
    ]);
    for (const stored of res.body.schedules) {
      expect(Object.keys(stored).sort()).toEqual(['appointment_type_id', 'day_of_week', 'end_time', 'id', 'is_active', 'start_time']);
      expect(stored.id).toMatch(UUID);
      expect(stored.is_active).toBe(true);
    }
    const read = await api.get('/calendar/availability');
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);
  });

  it('replaces the whole set rather than merging, with new ids', async () => {
    const first = await api.put('/calendar/availability', { schedules: [slot(2, '08:00:00', '09:00:00'), slot(3, '08:00:00', '09:00:00')] });
    const second = await api.put('/calendar/availability', { schedules: [slot(4, '10:00:00', '11:00:00')] });
    expect(second.status).toBe(200);
    expect(essence(second.body.schedules)).toEqual(essence([slot(4, '10:00:00', '11:00:00')]));
    expect(second.body.schedules[0].id).not.toBe(first.body.schedules[0].id);
    expect((await api.get('/calendar/availability')).body).toEqual(second.body);
  });

  it('clears the week with an empty array', async () => {
    await api.put('/calendar/availability', { schedules: [slot(2, '08:00:00', '09:00:00')] });
    const res = await api.put('/calendar/availability', { schedules: [], timezone: 'UTC', overrides: [] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ schedules: [], timezone: 'UTC', overrides: [] });
    expect((await api.get('/calendar/availability')).body).toEqual({ schedules: [], timezone: 'UTC', overrides: [] });
  });

  it('accepts touching slots, both ends of the day and exactly 500 slots', async () => {
    const touching = await api.put('/calendar/availability', {
      schedules: [slot(6, '00:00:00', '12:00:00'), slot(6, '12:00:00', '23:59:59')],
    });
    expect(touching.status).toBe(200);
    expect(touching.body.schedules).toHaveLength(2);
    const full = Array.from({ length: 500 }, (_, i) => slot(i % 7, clock(i * 120), clock(i * 120 + 60)));
    const res = await api.put('/calendar/availability', { schedules: full });
    expect(res.status).toBe(200);
    expect(essence(res.body.schedules)).toEqual(essence(full));
    const days = res.body.schedules.map((s: SlotIn) => `${s.day_of_week}|${s.start_time}`);
    expect(days).toEqual([...days].sort());
  });
});

describe('validation through the gateway', () => {
  const base = slot(1, '09:00:00', '17:00:00');
  let api: ApiClient;
  let before: unknown;

  beforeAll(async () => {
    ({ api } = await newOrgClient());
    before = (await api.put('/calendar/availability', { schedules: [slot(3, '10:00:00', '11:00:00', 'keep')] })).body;
  });

  afterEach(async () => {
    // Whatever was refused, the stored set is exactly the one from before.
    expect((await api.get('/calendar/availability')).body).toEqual(before);
  });

  const refused: [string, unknown, string][] = [
    ['day as a string', { schedules: [base, { ...base, day_of_week: '1' }] }, 'schedules[1].day_of_week'],
    ['day as a fraction', { schedules: [{ ...base, day_of_week: 1.5 }] }, 'schedules[0].day_of_week'],
    ['day 7', { schedules: [{ ...base, day_of_week: 7 }] }, 'schedules[0].day_of_week'],
    ['day -1', { schedules: [{ ...base, day_of_week: -1 }] }, 'schedules[0].day_of_week'],
    ['day null', { schedules: [{ ...base, day_of_week: null }] }, 'schedules[0].day_of_week'],
    ['day missing', { schedules: [{ start_time: '09:00:00', end_time: '10:00:00' }] }, 'schedules[0].day_of_week'],
    ['hour 24', { schedules: [{ ...base, end_time: '24:00:00' }] }, 'schedules[0].end_time'],
    ['minute 60', { schedules: [{ ...base, start_time: '09:60:00' }] }, 'schedules[0].start_time'],
    ['second 60', { schedules: [{ ...base, start_time: '09:00:60' }] }, 'schedules[0].start_time'],
    ['time without seconds', { schedules: [{ ...base, start_time: '09:00' }] }, 'schedules[0].start_time'],
    ['one-digit hour', { schedules: [{ ...base, end_time: '9:30:00', start_time: '08:00:00' }] }, 'schedules[0].end_time'],
    ['time as a number', { schedules: [{ ...base, start_time: 900 }] }, 'schedules[0].start_time'],
    ['time missing', { schedules: [{ day_of_week: 1, start_time: '09:00:00' }] }, 'schedules[0].end_time'],
    ['a duplicate slot', { schedules: [base, base] }, 'schedules[1].start_time'],
    ['end before start', { schedules: [base, slot(2, '10:00:00', '09:59:59')] }, 'schedules[1].end_time'],
    ['end equal to start alone', { schedules: [slot(2, '10:00:00', '10:00:00')] }, 'schedules[0].end_time'],
    ['overlap without a type', { schedules: [base, slot(2, '09:00:00', '10:00:00'), slot(1, '16:59:59', '18:00:00')] }, 'schedules[2].start_time'],
    ['overlap with one type', { schedules: [slot(1, '09:00:00', '12:00:00', 'a'), slot(1, '10:00:00', '11:00:00', 'a')] }, 'schedules[1].start_time'],
    ['more than 500 slots', { schedules: Array.from({ length: 501 }, (_, i) => slot(i % 7, clock(i * 120), clock(i * 120 + 60))) }, 'schedules'],
    ['unknown slot property', { schedules: [base, { ...base, day_of_week: 2, is_active: false }] }, 'schedules[1].is_active'],
    ['unknown body property', { schedules: [base], time_zone: 'UTC' }, 'time_zone'],
    ['schedules missing', {}, 'schedules'],
    ['schedules not an array', { schedules: { 0: base } }, 'schedules'],
    ['an entry that is not an object', { schedules: [base, 'monday'] }, 'schedules[1]'],
    ['appointment type too long', { schedules: [{ ...base, appointment_type_id: 'a'.repeat(101) }] }, 'schedules[0].appointment_type_id'],
    ['appointment type empty', { schedules: [{ ...base, appointment_type_id: '' }] }, 'schedules[0].appointment_type_id'],
    ['appointment type not a string', { schedules: [{ ...base, appointment_type_id: { id: 1 } }] }, 'schedules[0].appointment_type_id'],
    ['a body that is an array', [base], 'body'],
  ];

  it.each(refused)('refuses %s as VALIDATION_ERROR naming the field', async (_name, body, field) => {
    const res = await api.put('/calendar/availability', body);
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details).toEqual({ field, reason: expect.any(String) });
  });

  it('refuses a deeply nested body without a 500', async () => {
    const depth = 100_000;
    const deep = `{"schedules":[{"day_of_week":1,"start_time":"09:00:00","end_time":"10:00:00","appointment_type_id":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}]}`;
    const res = await api.request('PUT', '/calendar/availability', { rawBody: deep, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
  });

  it('refuses malformed JSON as BAD_REQUEST', async () => {
    const res = await api.request('PUT', '/calendar/availability', { rawBody: '{"schedules": [', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('BAD_REQUEST');
  });

  it('allows overlapping times for different appointment types and different days', async () => {
    const res = await api.put('/calendar/availability', {
      schedules: [base, { ...base, appointment_type_id: 'a' }, { ...base, appointment_type_id: 'b' }, { ...base, day_of_week: 2 }],
    });
    expect(res.status).toBe(200);
    expect(res.body.schedules).toHaveLength(4);
    before = res.body;
  });
});

describe('atomic replace', () => {
  it('leaves the stored set untouched when one slot of a large set is invalid', async () => {
    const { api } = await newOrgClient();
    const kept = await api.put('/calendar/availability', { schedules: [slot(0, '09:00:00', '10:00:00'), slot(6, '09:00:00', '10:00:00', 'x')] });
    expect(kept.status).toBe(200);
    const big = Array.from({ length: 500 }, (_, i) => slot(i % 7, clock(i * 120), clock(i * 120 + 60), `type-${i % 3}`));
    for (const [index, broken, field] of [
      [437, { ...big[437], end_time: big[437].start_time }, 'schedules[437].end_time'],
      [499, { ...big[0] }, 'schedules[499].start_time'],
      [250, { ...big[250], day_of_week: '3' }, 'schedules[250].day_of_week'],
    ] as const) {
      const set = big.map((s, i) => (i === index ? broken : s));
      const res = await api.put('/calendar/availability', { schedules: set });
      expect(res.status).toBe(400);
      expect(res.body.error.details.field).toBe(field);
      expect((await api.get('/calendar/availability')).body).toEqual(kept.body);
    }
  });
});

describe('concurrent replaces of one organization', () => {
  let secondInstance: Awaited<ReturnType<typeof startProcess>>;

  beforeAll(async () => {
    // A second calendar process in the same queue group: the parallel requests land on both.
    secondInstance = await startProcess('calendar');
  });

  afterAll(async () => {
    await secondInstance?.stop();
  });

  it('leave exactly one of the submitted sets, never a mix', async () => {
    const { api } = await newOrgClient();
    const writers = 12;
    for (let round = 0; round < 5; round += 1) {
      // Distinct sets of different sizes, so any mix of two would be visible.
      const sets = Array.from({ length: writers }, (_, w) =>
        Array.from({ length: 5 + w * 7 }, (_, i) => slot(i % 7, clock(i * 600), clock(i * 600 + 300), `r${round}-w${w}`)),
      );
      const answers = await Promise.all(sets.map((schedules) => api.put('/calendar/availability', { schedules })));
      answers.forEach((res, w) => {
        expect(res.status).toBe(200);
        expect(essence(res.body.schedules)).toEqual(essence(sets[w]));
      });
      const final = await api.get('/calendar/availability');
      const matching = sets.filter((set) => JSON.stringify(essence(set)) === JSON.stringify(essence(final.body.schedules)));
      expect(matching).toHaveLength(1);
      expect(final.body.schedules).toHaveLength(matching[0].length);
    }
  });
});

describe('organizations', () => {
  it('never see or change each other\'s availability', async () => {
    const a = await newOrgClient();
    const b = await newOrgClient();
    const setA = [slot(1, '09:00:00', '10:00:00', 'a')];
    const setB = [slot(2, '14:00:00', '15:00:00', 'b'), slot(3, '14:00:00', '15:00:00')];
    expect((await a.api.put('/calendar/availability', { schedules: setA })).status).toBe(200);
    expect((await b.api.put('/calendar/availability', { schedules: setB })).status).toBe(200);
    expect(essence((await a.api.get('/calendar/availability')).body.schedules)).toEqual(essence(setA));
    expect(essence((await b.api.get('/calendar/availability')).body.schedules)).toEqual(essence(setB));
    // Overlaps are judged per organization: B's slots do not collide with A's.
    expect((await a.api.put('/calendar/availability', { schedules: [...setB] })).status).toBe(200);
    expect((await a.api.put('/calendar/availability', { schedules: [], timezone: 'UTC', overrides: [] })).status).toBe(200);
    expect(essence((await b.api.get('/calendar/availability')).body.schedules)).toEqual(essence(setB));
    expect((await a.api.get('/calendar/availability')).body).toEqual({ schedules: [], timezone: 'UTC', overrides: [] });
  });
});

describe('scopes', () => {
  it('needs calendar:write to replace and calendar:read to read', async () => {
    const { orgId, api: owner } = await newOrgClient('calendar:read,calendar:write');
    const stored = await owner.put('/calendar/availability', { schedules: [slot(1, '09:00:00', '10:00:00')] });
    expect(stored.status).toBe(200);
    const readOnly = apiClient((await admin('key', 'create', '--org', orgId, '--scopes', 'calendar:read')).key);
    const writeOnly = apiClient((await admin('key', 'create', '--org', orgId, '--scopes', 'calendar:write')).key);
    const unrelated = apiClient((await admin('key', 'create', '--org', orgId, '--scopes', 'tables:read,tables:write')).key);

    for (const client of [readOnly, unrelated]) {
      const res = await client.put('/calendar/availability', { schedules: [], timezone: 'UTC', overrides: [] });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ success: false, error: expect.objectContaining({ code: 'FORBIDDEN' }) });
    }
    for (const client of [writeOnly, unrelated]) {
      expect((await client.get('/calendar/availability')).status).toBe(403);
    }
    expect((await readOnly.get('/calendar/availability')).body).toEqual(stored.body);
    expect((await writeOnly.put('/calendar/availability', { schedules: [], timezone: 'UTC', overrides: [] })).status).toBe(200);
    expect((await readOnly.get('/calendar/availability')).body).toEqual({ schedules: [], timezone: 'UTC', overrides: [] });
  });

  it('needs an API key', async () => {
    expect((await apiClient().put('/calendar/availability', { schedules: [], timezone: 'UTC', overrides: [] })).status).toBe(401);
    expect((await apiClient('not-a-key').get('/calendar/availability')).status).toBe(401);
  });
});

describe('time zone, overrides and open windows', () => {
  let api: ApiClient;
  const weekdays = (start: string, end: string) => [1, 2, 3, 4, 5].map((day) => slot(day, start, end));
  const windows = async (query: string) => {
    const res = await api.get(`/calendar/availability/windows?${query}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['windows']);
    return res.body.windows as { start: string; end: string }[];
  };
  const refusal = async (path: string, body?: unknown) => {
    const res = body === undefined ? await api.get(path) : await api.put(path, body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    return res.body.error.details.field as string;
  };

  beforeAll(async () => {
    ({ api } = await newOrgClient());
  });

  it('stores the zone and the overrides and answers them back, sorted', async () => {
    const overrides = [
      { date: '2026-12-31', unavailable: true },
      { date: '2026-12-24', start_time: '13:00:00', end_time: '15:00:00' },
      { date: '2026-12-24', start_time: '09:00:00', end_time: '12:00:00' },
    ];
    const res = await api.put('/calendar/availability', { schedules: weekdays('09:00:00', '17:00:00'), timezone: 'Europe/Berlin', overrides });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ timezone: 'Europe/Berlin', overrides: [overrides[2], overrides[1], overrides[0]] });
    expect((await api.get('/calendar/availability')).body).toEqual(res.body);
  });

  it('computes windows across the spring and autumn changes in Berlin, with overrides applied', async () => {
    await api.put('/calendar/availability', {
      schedules: weekdays('09:00:00', '17:00:00'),
      timezone: 'Europe/Berlin',
      overrides: [
        { date: '2026-03-30', start_time: '10:00:00', end_time: '12:00:00' },
        { date: '2026-03-31', unavailable: true },
      ],
    });
    expect(await windows('from=2026-03-27&to=2026-04-01')).toEqual([
      { start: '2026-03-27T08:00:00.000Z', end: '2026-03-27T16:00:00.000Z' },
      { start: '2026-03-30T08:00:00.000Z', end: '2026-03-30T10:00:00.000Z' },
      { start: '2026-04-01T07:00:00.000Z', end: '2026-04-01T15:00:00.000Z' },
    ]);
    expect(await windows('from=2026-10-23&to=2026-10-26')).toEqual([
      { start: '2026-10-23T07:00:00.000Z', end: '2026-10-23T15:00:00.000Z' },
      { start: '2026-10-26T08:00:00.000Z', end: '2026-10-26T16:00:00.000Z' },
    ]);
  });

  it.each([
    ['America/New_York', '2026-03-06', '2026-03-09', ['2026-03-06T14:00:00.000Z', '2026-03-09T13:00:00.000Z']],
    ['America/New_York', '2026-10-30', '2026-11-02', ['2026-10-30T13:00:00.000Z', '2026-11-02T14:00:00.000Z']],
    ['Australia/Sydney', '2026-04-03', '2026-04-06', ['2026-04-02T22:00:00.000Z', '2026-04-05T23:00:00.000Z']],
    ['Australia/Sydney', '2026-10-02', '2026-10-05', ['2026-10-01T23:00:00.000Z', '2026-10-04T22:00:00.000Z']],
    ['Asia/Kolkata', '2026-03-27', '2026-03-30', ['2026-03-27T03:30:00.000Z', '2026-03-30T03:30:00.000Z']],
  ])('opens 09:00 local in %s from %s to %s at the right instants', async (timezone, from, to, starts) => {
    expect((await api.put('/calendar/availability', { schedules: weekdays('09:00:00', '17:00:00'), timezone })).status).toBe(200);
    const open = await windows(`from=${from}&to=${to}`);
    expect(open.map((window) => window.start)).toEqual(starts);
    expect(open.every((window) => Date.parse(window.end) - Date.parse(window.start) === 8 * 3_600_000)).toBe(true);
  });

  it('filters by appointment type: that type and slots without one', async () => {
    await api.put('/calendar/availability', {
      schedules: [slot(1, '09:00:00', '10:00:00'), slot(1, '11:00:00', '12:00:00', 'consult'), slot(1, '13:00:00', '14:00:00', 'other')],
    });
    expect((await windows('from=2026-06-01&to=2026-06-01&appointment_type_id=consult')).map((window) => window.start)).toEqual([
      '2026-06-01T09:00:00.000Z',
      '2026-06-01T11:00:00.000Z',
    ]);
    expect(await windows('from=2026-06-01&to=2026-06-01')).toHaveLength(3);
  });

  it('refuses an unknown zone and an invalid override by name, and changes nothing', async () => {
    const before = (await api.get('/calendar/availability')).body;
    expect(await refusal('/calendar/availability', { schedules: [], timezone: 'Europe/Atlantis' })).toBe('timezone');
    const overrides = [
      { date: '2026-12-24', unavailable: true },
      { date: '2026-12-25', unavailable: true },
      { date: '2026-02-30', unavailable: true },
    ];
    expect(await refusal('/calendar/availability', { schedules: [], overrides })).toBe('overrides[2].date');
    expect(await refusal('/calendar/availability', { schedules: [], overrides: [{ date: '2026-12-24', start_time: '10:00:00', end_time: '09:00:00' }] })).toBe(
      'overrides[0].end_time',
    );
    expect((await api.get('/calendar/availability')).body).toEqual(before);
  });

  it('refuses bad window queries by name', async () => {
    expect(await refusal('/calendar/availability/windows?to=2026-01-10')).toBe('from');
    expect(await refusal('/calendar/availability/windows?from=2026-02-30&to=2026-03-01')).toBe('from');
    expect(await refusal('/calendar/availability/windows?from=2026-03-10&to=2026-03-09')).toBe('to');
    expect(await refusal('/calendar/availability/windows?from=2026-03-01&to=2026-05-02')).toBe('to');
    expect(await refusal('/calendar/availability/windows?from=2026-03-01&to=2026-03-02&zone=UTC')).toBe('zone');
    expect(await windows('from=2026-03-01&to=2026-05-01')).toEqual(expect.any(Array));
  });
});
