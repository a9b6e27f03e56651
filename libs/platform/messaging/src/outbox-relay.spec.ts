import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { connect, NatsConnection, StorageType } from 'nats';
import { Database, Outbox, outboxTableSql, parkedOutboxTableSql } from '@platform/persistence';
import { OutboxRelay, PUBLISH_ATTEMPTS_BEFORE_PARKING } from './outbox-relay';

// Real Postgres (a schema of its own) and the real NATS server (a stream of its own).
const DATABASE_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';
const SCHEMA = `outbox_relay_spec_${process.pid}`;
const STREAM = `OUTBOX_RELAY_SPEC_${process.pid}`;
const ROUTED = `outbox-relay-spec.${process.pid}`;

describe('OutboxRelay setting events aside', () => {
  const db = new Database({ url: DATABASE_URL, poolSize: 3, organizationShare: 1, applicationName: `outbox-relay-spec-${process.pid}` });
  const outbox = new Outbox(SCHEMA);
  let nc: NatsConnection;
  let relay: OutboxRelay;
  let parkedCounts: number[];

  const write = async (subject: string) => {
    const id = randomUUID();
    await db.query(`INSERT INTO ${SCHEMA}.outbox (id, subject, payload) VALUES ($1, $2, $3)`, [id, subject, JSON.stringify({ id })]);
    return id;
  };
  const unrouted = () => `outbox-relay-spec-unrouted.${randomUUID()}`;
  const streamMessages = async () => (await (await nc.jetstreamManager()).streams.info(STREAM)).state.messages;

  beforeAll(async () => {
    nc = await connect({ servers: NATS_URL });
    await (await nc.jetstreamManager()).streams.add({ name: STREAM, subjects: [`${ROUTED}.>`], storage: StorageType.Memory });
  });

  beforeEach(async () => {
    await db.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
    await db.query(`CREATE SCHEMA ${SCHEMA}`);
    for (const statement of [...outboxTableSql(SCHEMA), ...parkedOutboxTableSql(SCHEMA)]) await db.query(statement);
    await (await nc.jetstreamManager()).streams.purge(STREAM);
    parkedCounts = [];
    relay = new OutboxRelay(db, outbox, nc, pino({ level: 'silent' }), { onParked: (count) => parkedCounts.push(count) });
  });

  afterAll(async () => {
    await db.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
    await db.close();
    const jsm = await nc.jetstreamManager();
    await jsm.streams.delete(STREAM).catch(() => undefined);
    await nc.close();
  });

  it('sets nothing aside when every event of the batch fails alike: the batch waits in the outbox', async () => {
    await write(unrouted());
    await write(unrouted());
    for (let attempt = 0; attempt < PUBLISH_ATTEMPTS_BEFORE_PARKING + 2; attempt += 1) await expect(relay.relayBatch()).rejects.toThrow();
    expect(await outbox.parkedCount(db)).toBe(0);
    expect((await db.query(`SELECT count(*)::int AS n FROM ${SCHEMA}.outbox`)).rows[0].n).toBe(2);
    expect(parkedCounts).toEqual([]);
  });

  it('sets aside an event that keeps failing while others go out, after the allowed tries, and publishes the rest', async () => {
    const poisoned = await write(unrouted());
    const good = [await write(`${ROUTED}.a`), await write(`${ROUTED}.b`)];
    for (let attempt = 1; attempt < PUBLISH_ATTEMPTS_BEFORE_PARKING; attempt += 1) await expect(relay.relayBatch()).rejects.toThrow();
    expect(await outbox.parkedCount(db)).toBe(0);
    expect(await relay.relayBatch()).toBe(good.length);
    expect((await outbox.listParked(db)).map((entry) => entry.id)).toEqual([poisoned]);
    expect(parkedCounts).toEqual([1]);
    expect((await db.query(`SELECT count(*)::int AS n FROM ${SCHEMA}.outbox`)).rows[0].n).toBe(0);
    // Published once each: the rolled-back tries were dropped by JetStream as duplicates of the same event id.
    expect(await streamMessages()).toBe(good.length);
  });

  it('takes a batch with the statement that opens its transaction, whose commit does not wait for the disk, and publishes it', async () => {
    const settings: string[] = [];
    const openings: Array<string | undefined> = [];
    const transaction = db.transaction.bind(db);
    const spy = jest.spyOn(db, 'transaction').mockImplementation((work, options) =>
      transaction(async (tx, opened) => {
        settings.push((await tx.query<{ synchronous_commit: string }>('SHOW synchronous_commit')).rows[0].synchronous_commit);
        openings.push(options?.opening);
        return work(tx, opened);
      }, options),
    );
    try {
      await write(`${ROUTED}.a`);
      expect(await relay.relayBatch()).toBe(1);
      expect(settings).toEqual(['off']);
      expect(openings).toEqual([outbox.takeStatement(relay.batchSize)]);
      expect(await streamMessages()).toBe(1);
    } finally {
      spy.mockRestore();
    }
  });
});
