import { buildEvent, MOST_ENTRY_BYTES, MOST_EVENTS_PER_ENTRY, Outbox, OutboxEntry, outboxEntries, outboxTableSql, parkedOutboxTableSql } from './outbox';
import { Database, Sql } from './database';

// Runs against the real Postgres, in a schema of its own on the maintenance database.
const DATABASE_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SCHEMA = `outbox_spec_${process.pid}`;
const ORGANIZATION = '00000000-0000-4000-8000-000000000001';

describe('Outbox.takeStatement', () => {
  const db = new Database({ url: DATABASE_URL, poolSize: 3, organizationShare: 1, applicationName: `outbox-spec-${process.pid}` });
  const outbox = new Outbox(SCHEMA);
  const waiting = async () => (await db.query<{ id: string }>(`SELECT id FROM ${SCHEMA}.outbox ORDER BY seq`)).rows.map((row) => row.id);
  /** Takes a batch as a relay does, in a transaction its take opens, does `work` with it there, and commits. */
  const take = <T = OutboxEntry[]>(limit: number, work: (tx: Sql, taken: OutboxEntry[]) => Promise<T> = async (_tx, taken) => taken as T) =>
    db.transaction<T, OutboxEntry>(work, { opening: outbox.takeStatement(limit) });

  beforeEach(async () => {
    await db.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
    await db.query(`CREATE SCHEMA ${SCHEMA}`);
    for (const statement of [...outboxTableSql(SCHEMA), ...parkedOutboxTableSql(SCHEMA)]) await db.query(statement);
    // The first events get one-digit sequence numbers and the later ones two: text order would put 10 before 9.
    await db.query(`SELECT setval('${SCHEMA}.outbox_seq_seq', 6)`);
  });

  afterAll(async () => {
    await db.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
    await db.close();
  });

  async function writeEvents(count: number): Promise<string[]> {
    const events = Array.from({ length: count }, (_, index) => buildEvent(ORGANIZATION, 'row.created', { index }));
    // Several statements, as several transactions would write them.
    for (const event of events) await outbox.write(db, [event]);
    return events.map((event) => event.id);
  }

  it('takes the oldest events in the order they were written, exactly as written, and leaves the rest', async () => {
    const ids = await writeEvents(8);
    const taken = await take(5);
    expect(taken.map((entry) => entry.id)).toEqual(ids.slice(0, 5));
    expect(taken.map((entry) => Number(entry.seq))).toEqual([7, 8, 9, 10, 11]);
    expect(JSON.parse(taken[0].payload)).toMatchObject({ id: ids[0], event: 'row.created', data: { index: 0 } });
    expect(taken[0].subject).toContain('row.created');
    expect(await waiting()).toEqual(ids.slice(5));
  });

  it('refuses a batch size that is not a positive whole number', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => outbox.takeStatement(bad)).toThrow(RangeError);
  });

  it('puts every event back when the transaction rolls back (a publish that failed)', async () => {
    const ids = await writeEvents(4);
    const failed = take(10, async (_tx, taken) => {
      expect(taken).toHaveLength(4);
      throw new Error('publish failed');
    });
    await expect(failed).rejects.toThrow('publish failed');
    expect(await waiting()).toEqual(ids);
  });

  it('skips the events another relay holds, so two relays never take the same event', async () => {
    const ids = await writeEvents(6);
    let releaseFirst: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (releaseFirst = resolve));
    let first: string[] = [];
    const firstRelay = take(3, async (_tx, taken) => {
      first = taken.map((entry) => entry.id);
      await held;
    });
    while (first.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const second = (await take(10)).map((entry) => entry.id);
    releaseFirst();
    await firstRelay;
    expect(first).toEqual(ids.slice(0, 3));
    expect(second).toEqual(ids.slice(3));
    expect(await waiting()).toEqual([]);
  });

  it('sets taken events aside with their error, lists them, and puts them back at the end of the outbox with their ids', async () => {
    const ids = await writeEvents(4);
    await take(2, async (tx, [first, second]) => {
      await outbox.park(tx, [{ entry: first, error: 'refused' }]);
      expect(second.id).toBe(ids[1]);
    });
    expect(await waiting()).toEqual(ids.slice(2));
    expect(await outbox.parkedCount(db)).toBe(1);
    const [parked] = await outbox.listParked(db);
    expect(parked).toMatchObject({ id: ids[0], error: 'refused' });
    expect(parked.subject).toContain('row.created');

    expect(await outbox.retryParked(db, [ids[3]])).toEqual([]);
    expect(await outbox.retryParked(db)).toEqual([ids[0]]);
    expect(await outbox.parkedCount(db)).toBe(0);
    expect(await waiting()).toEqual([ids[2], ids[3], ids[0]]);
    const [again] = await take(10);
    expect(JSON.parse(again.payload)).toMatchObject({ id: ids[2] });
  });
});

describe('Outbox announcements', () => {
  const db = new Database({ url: DATABASE_URL, poolSize: 2, organizationShare: 1, applicationName: `outbox-spec-announce-${process.pid}` });
  const outbox = new Outbox(`${SCHEMA}_announce`);
  const seen: string[] = [];
  const visibleEntries = async () => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${outbox.schema}.outbox`)).rows[0].n;

  beforeAll(async () => {
    await db.query(`DROP SCHEMA IF EXISTS ${outbox.schema} CASCADE`);
    await db.query(`CREATE SCHEMA ${outbox.schema}`);
    for (const statement of outboxTableSql(outbox.schema)) await db.query(statement);
    // Each announcement records how many entries another connection sees at that moment.
    outbox.announceWith(() => void visibleEntries().then((n) => seen.push(`announced, ${n} visible`)));
  });

  beforeEach(() => {
    seen.length = 0;
  });

  afterAll(async () => {
    await db.query(`DROP SCHEMA IF EXISTS ${outbox.schema} CASCADE`);
    await db.close();
  });

  const settle = () => new Promise((resolve) => setTimeout(resolve, 200));

  it('announces a transaction once, after it commits, however many writes it made', async () => {
    await db.transaction(async (tx) => {
      await outbox.write(tx, [buildEvent(ORGANIZATION, 'row.created', { n: 1 })]);
      await outbox.write(tx, [buildEvent(ORGANIZATION, 'row.created', { n: 2 })]);
      await settle();
      expect(seen).toEqual([]);
    });
    await settle();
    expect(seen).toEqual(['announced, 2 visible']);
  });

  it('announces nothing for a transaction that rolls back', async () => {
    const before = await visibleEntries();
    await expect(
      db.transaction(async (tx) => {
        await outbox.write(tx, [buildEvent(ORGANIZATION, 'row.created', { n: 3 })]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await settle();
    expect(seen).toEqual([]);
    expect(await visibleEntries()).toBe(before);
  });

  it('announces a write outside a transaction as soon as it is done', async () => {
    const before = await visibleEntries();
    await outbox.write(db, [buildEvent(ORGANIZATION, 'row.created', { n: 4 })]);
    await settle();
    expect(seen).toEqual([`announced, ${before + 1} visible`]);
  });
});

describe('outboxEntries', () => {
  const OTHER = '00000000-0000-4000-8000-000000000002';
  const created = (count: number, data: object = {}) => Array.from({ length: count }, (_, index) => buildEvent(ORGANIZATION, 'row.created', { index, ...data }));

  it('writes a lone event as itself, and a run of one subject as one entry: the JSON array in order, named after the first', () => {
    const [lone] = created(1);
    expect(outboxEntries([lone])).toEqual([{ id: lone.id, subject: `events.${ORGANIZATION}.row.created`, payload: JSON.stringify(lone) }]);
    const run = created(3);
    const [entry, ...more] = outboxEntries(run);
    expect(more).toEqual([]);
    expect(entry.id).toBe(run[0].id);
    expect(JSON.parse(entry.payload)).toEqual(run);
  });

  it('starts an entry at every change of subject, so the events keep their order across entries', () => {
    const first = created(2);
    const deleted = buildEvent(ORGANIZATION, 'row.deleted', { index: 9 });
    const elsewhere = buildEvent(OTHER, 'row.created', { index: 10 });
    const last = created(1);
    const events = [...first, deleted, elsewhere, ...last];
    const entries = outboxEntries(events);
    expect(entries.map((entry) => entry.id)).toEqual([first[0].id, deleted.id, elsewhere.id, last[0].id]);
    const flattened = entries.flatMap((entry) => {
      const value: unknown = JSON.parse(entry.payload);
      return Array.isArray(value) ? value : [value];
    });
    expect(flattened).toEqual(events);
  });

  it('keeps each entry within its count and its size', () => {
    const counts = outboxEntries(created(2 * MOST_EVENTS_PER_ENTRY + 1)).map((entry) => [JSON.parse(entry.payload)].flat().length);
    expect(counts).toEqual([MOST_EVENTS_PER_ENTRY, MOST_EVENTS_PER_ENTRY, 1]);
    const large = created(10, { text: 'x'.repeat(MOST_ENTRY_BYTES / 4) });
    const entries = outboxEntries(large);
    expect(entries.length).toBeGreaterThan(2);
    for (const entry of entries) expect(entry.payload.length).toBeLessThanOrEqual(MOST_ENTRY_BYTES);
    expect(entries.flatMap((entry) => [JSON.parse(entry.payload)].flat())).toEqual(large);
  });
});
