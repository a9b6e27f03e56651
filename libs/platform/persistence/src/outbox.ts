import { randomUUID } from 'node:crypto';
import { eventSubject, type DomainEvent } from '@contracts/vocabulary';
import { afterCommit } from './commit-hooks';
import type { PreparedStatement, Sql } from './database';
import { quoteIdent } from './identifiers';

/** DDL of a context's outbox as its migrations create it, for the specs that make one in a scratch schema. */
export function outboxTableSql(schema: string): string[] {
  const table = `${quoteIdent(schema)}.outbox`;
  return [
    `CREATE TABLE ${table} (
      seq bigserial PRIMARY KEY,
      id uuid NOT NULL UNIQUE,
      subject text NOT NULL,
      payload text COMPRESSION lz4 NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
  ];
}

/**
 * DDL of the place a context's relay sets aside an event it cannot publish (see OutboxRelay), where it
 * waits for an operator (`admin outbox retry`), as its migrations create it, for the specs.
 */
export function parkedOutboxTableSql(schema: string): string[] {
  return [
    `CREATE TABLE IF NOT EXISTS ${quoteIdent(schema)}.outbox_parked (
      id uuid PRIMARY KEY,
      subject text NOT NULL,
      payload text COMPRESSION lz4 NOT NULL,
      error text NOT NULL,
      parked_at timestamptz NOT NULL DEFAULT now()
    )`,
  ];
}

export function buildEvent<D>(organizationId: string, kind: string, data: D, at: Date = new Date()): DomainEvent<D> {
  return { id: randomUUID(), event: kind, timestamp: at.toISOString(), organization_id: organizationId, data };
}

/** Adds a bind parameter to the statement being built and answers its placeholder (`$n`). */
export type Bind = (value: unknown) => string;

/** An event the relay set aside, as an operator sees it. */
export interface ParkedEntry {
  id: string;
  subject: string;
  error: string;
  parked_at: Date;
}

export interface OutboxEntry {
  seq: string;
  id: string;
  subject: string;
  /** The event's JSON exactly as written. */
  payload: string;
}

/** The most events one outbox entry, and so one message of the stream, carries. */
export const MOST_EVENTS_PER_ENTRY = 100;
/** An entry stops taking events past this much JSON, so that a message of many stays far below NATS's limit. */
export const MOST_ENTRY_BYTES = 256 * 1024;

/** Whether `count` events of `bytes` of JSON in all fit in one outbox entry. */
export function fitsOneEntry(count: number, bytes: number): boolean {
  return count <= MOST_EVENTS_PER_ENTRY && bytes <= MOST_ENTRY_BYTES;
}

/**
 * The outbox entries a write's events become: each run of consecutive events of one subject (one
 * organization, one kind: a batch create's `row.created`s) is one entry, up to MOST_EVENTS_PER_ENTRY
 * events and MOST_ENTRY_BYTES of JSON, its payload the JSON array of them in order, named after the first;
 * a run of one is the event itself. The order of the events is kept across entries.
 */
export function outboxEntries(events: readonly DomainEvent[]): Array<{ id: string; subject: string; payload: string }> {
  const entries: Array<{ id: string; subject: string; bodies: string[]; bytes: number }> = [];
  for (const event of events) {
    const subject = eventSubject(event.organization_id, event.event);
    const body = JSON.stringify(event);
    const last = entries.at(-1);
    if (last && last.subject === subject && fitsOneEntry(last.bodies.length + 1, last.bytes + body.length)) {
      last.bodies.push(body);
      last.bytes += body.length + 1;
    } else {
      entries.push({ id: event.id, subject, bodies: [body], bytes: body.length + 2 });
    }
  }
  return entries.map(({ id, subject, bodies }) => ({ id, subject, payload: bodies.length === 1 ? bodies[0] : `[${bodies.join(',')}]` }));
}

/**
 * A context's outbox: every statement that writes, claims or measures it. Events are written with the
 * caller's connection, so they commit or roll back with the change they describe.
 */
export class Outbox {
  private readonly table: string;
  private announce?: () => void;
  private readonly parked: string;
  /** What a relay runs for every poll, so each connection plans it once. */
  private readonly pendingStatement: PreparedStatement;

  constructor(readonly schema: string) {
    this.table = `${quoteIdent(schema)}.outbox`;
    this.parked = `${quoteIdent(schema)}.outbox_parked`;
    this.pendingStatement = { name: `outbox_pending_${schema}`, text: `SELECT 1 FROM ${this.table} LIMIT 1` };
  }

  /**
   * How this process tells the relays that entries it wrote have committed. A hint only: a relay that
   * misses it finds the entries at its next poll.
   */
  announceWith(announce: () => void): void {
    this.announce = announce;
  }

  async write(db: Sql, events: readonly DomainEvent[]): Promise<void> {
    if (events.length === 0) return;
    const values: unknown[] = [];
    const sql = this.insertStatement(events, (value) => `$${values.push(value)}`);
    await db.query(sql, values);
    this.written(db);
  }

  /** Announces, once `db`'s transaction commits, that entries were written on it; `write` calls it, a caller of `insertStatement` does. */
  written(db: Sql): void {
    if (this.announce) afterCommit(db, this.announce);
  }

  /**
   * The INSERT that writes, as one entry and so one message, the events of the rows a statement wrote.
   * `events` are the placeholders of their ids, their rows' ids and their bodies as one JSON array text, in
   * order; `written` names the CTE of the rows written (their `id`). When every row was written the entry
   * is that array as sent (Postgres parses none of it); otherwise the events of the rows written, in their
   * order, named after the first; nothing when none was. Every event has the subject of `sample`: one
   * organization, one kind.
   */
  insertWrittenStatement(sample: DomainEvent, events: { ids: string; rowIds: string; bodies: string }, written: string, bind: Bind): string {
    const subject = bind(eventSubject(sample.organization_id, sample.event));
    const count = `(SELECT count(*) FROM ${written})`;
    const all = `cardinality(${events.rowIds}::uuid[])`;
    const some = `SELECT (array_agg(k.id ORDER BY ord))[1] AS id, json_agg(b.body ORDER BY ord)::text AS payload
      FROM unnest(${events.ids}::uuid[], ${events.rowIds}::uuid[]) WITH ORDINALITY AS k(id, row_id, ord)
      JOIN json_array_elements(${events.bodies}::json) WITH ORDINALITY AS b(body, ord) USING (ord)
      WHERE k.row_id IN (SELECT id FROM ${written}) HAVING count(*) > 0`;
    return `INSERT INTO ${this.table} (id, subject, payload)
      SELECT (${events.ids}::uuid[])[1], ${subject}, ${events.bodies}::text WHERE ${count} = ${all}
      UNION ALL SELECT s.id, ${subject}, s.payload FROM (${some}) AS s WHERE ${count} < ${all}`;
  }

  /**
   * The INSERT that writes `events`, for a caller building a larger statement: one entry per run of
   * consecutive events of one subject (outboxEntries). With `onlyIf` (the name of an earlier CTE) the
   * events are written only when that CTE returned rows, so a change and its event can be one statement.
   */
  insertStatement(events: readonly DomainEvent[], bind: Bind, onlyIf?: string): string {
    const tuples = outboxEntries(events).map(({ id, subject, payload }) => `(${bind(id)}::uuid, ${bind(subject)}, ${bind(payload)})`);
    const condition = onlyIf ? ` WHERE EXISTS (SELECT 1 FROM ${onlyIf})` : '';
    return `INSERT INTO ${this.table} (id, subject, payload) SELECT * FROM (VALUES ${tuples.join(', ')}) AS e(id, subject, payload)${condition}`;
  }

  /**
   * The statement that takes the oldest waiting events out of the outbox, in the order they were written:
   * rows another relay holds are skipped, and a rollback puts every one back. Text without parameters: a
   * relay opens its transaction with it (Database.transaction's `opening`), so a batch costs one round trip
   * to Postgres and then its COMMIT.
   */
  takeStatement(limit: number): string {
    if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`an outbox batch is a positive whole number of entries, not ${limit}`);
    // RETURNING promises no order; the outer SELECT restores the outbox's.
    return `WITH taken AS (
         DELETE FROM ${this.table} WHERE seq IN (SELECT seq FROM ${this.table} ORDER BY seq LIMIT ${limit} FOR UPDATE SKIP LOCKED)
         RETURNING seq, id, subject, payload)
       SELECT * FROM taken ORDER BY seq`;
  }

  /** One cheap statement, so that an idle relay does not open a transaction on every poll. */
  async hasPending(db: Sql): Promise<boolean> {
    const { rowCount } = await db.query(this.pendingStatement);
    return Boolean(rowCount);
  }

  /** Sets taken entries aside within `tx` (they left the outbox when taken), each with why it failed. */
  async park(tx: Sql, entries: ReadonlyArray<{ entry: OutboxEntry; error: string }>): Promise<void> {
    if (entries.length === 0) return;
    await tx.query(
      `INSERT INTO ${this.parked} (id, subject, payload, error)
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[]) ON CONFLICT (id) DO NOTHING`,
      [entries.map(({ entry }) => entry.id), entries.map(({ entry }) => entry.subject), entries.map(({ entry }) => entry.payload), entries.map(({ error }) => error)],
    );
  }

  async parkedCount(db: Sql): Promise<number> {
    const { rows } = await db.query<{ count: string }>(`SELECT count(*) AS count FROM ${this.parked}`);
    return Number(rows[0]?.count ?? 0);
  }

  async listParked(db: Sql): Promise<ParkedEntry[]> {
    const { rows } = await db.query<ParkedEntry>(`SELECT id, subject, error, parked_at FROM ${this.parked} ORDER BY parked_at, id`);
    return rows;
  }

  /**
   * Puts set-aside events back at the end of the outbox (all of them, or those of `ids`), for the relay
   * to publish again; answers their ids. The event ids stay, so a receiver still de-duplicates on them.
   */
  async retryParked(db: Sql, ids?: readonly string[]): Promise<string[]> {
    const { rows } = await db.query<{ id: string }>(
      `WITH moved AS (DELETE FROM ${this.parked} WHERE $1::uuid[] IS NULL OR id = ANY($1::uuid[]) RETURNING id, subject, payload, parked_at)
       INSERT INTO ${this.table} (id, subject, payload) SELECT id, subject, payload FROM moved ORDER BY parked_at, id RETURNING id`,
      [ids ?? null],
    );
    return rows.map((row) => row.id);
  }

  /** Seconds since the oldest event still waiting was written; 0 when the outbox is empty. */
  async lagSeconds(db: Sql): Promise<number> {
    const { rows } = await db.query<{ lag: number }>(
      `SELECT COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)::float AS lag FROM ${this.table}`,
    );
    return Number(rows[0]?.lag ?? 0);
  }
}
