import { Injectable } from '@nestjs/common';
import { Database, jsonTexts, PreparedStatement, Sql } from '@platform/persistence';
import { DELIVERIES_TABLE, DELIVERY_SERIES_TABLE, EVENT_MESSAGES_TABLE, EVENTS_TABLE, MESSAGE_EVENTS_VIEW, RECOVERIES_TABLE, WEBHOOKS_TABLE } from '../webhooks-schema';

/** An event as the store keeps it: the exact bytes receivers get and sign. */
export interface StoredEvent {
  id: string;
  organizationId: string;
  eventType: string;
  /** The table a `row.*` or `table.*` event is about. */
  tableId: string | null;
  body: string;
}

const OWED_COLUMNS = 's.id, s.webhook_id, e.organization_id, s.event_id, e.event_type, e.table_id, e.body, s.trigger, s.attempts, s.due_at';

/** The advisory lock the pruning replicas share (hashed to its key by Postgres). */
export const PRUNE_LOCK = 'webhooks.event-retention';

export type SeriesTrigger = 'event' | 'redeliver' | 'recover';

/** A series the fan-out opened (or found open), with whether it still owes attempts. */
export interface FanOutSeries {
  id: string;
  event_id: string;
  webhook_id: string;
  finished: boolean;
  /** Opened by this statement, not by an earlier hand-over of its event. */
  created: boolean;
  attempts: number;
}

/** A stored event a recovery may send again. */
export interface RecoveryCandidate {
  id: string;
  event_type: string;
  table_id: string | null;
  /** A row event's data, for the webhook's filter; null for other kinds. */
  data: unknown;
  /** The stored message that holds the event, when no webhook wanted it on arrival (see `storeMessages`). */
  message_id: string | null;
}

/**
 * Where a page of recovery candidates ended: the events kept one per row are read first, then those kept a
 * message at a time. `received_at` to the microsecond (a Date would cut it to milliseconds and read events twice).
 */
export type RecoveryCursor = { store: 'events' | 'messages'; received_at: string; id: string };

/** A stream message whose events no webhook wanted on arrival, kept as it was carried. */
export interface StoredMessage {
  /** The message's id on the stream (its outbox entry's): a message handed over twice is kept once. */
  id: string;
  organizationId: string;
  /** One event, or a JSON array of events, as the message carried it. */
  body: string;
}

const NO_ID = '00000000-0000-0000-0000-000000000000';
const MICROSECONDS = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;
/** About how much message text one page of a recovery reads apart (at least one message). */
const MESSAGE_PAGE_BYTES = 256 * 1024;

/** Where a page of owed series ended: the due time as Postgres writes it (to the microsecond), and the id. */
export interface SeriesCursor {
  dueAt: string;
  id: string;
}

/** A delivery series that still owes attempts, with what its job needs. */
export interface OwedSeries {
  id: string;
  webhook_id: string;
  organization_id: string;
  event_id: string;
  event_type: string;
  table_id: string | null;
  body: string;
  trigger: SeriesTrigger;
  attempts: number;
  due_at: Date;
}

/** The bodies come as one JSON array text (jsonTexts), each stored exactly as it was written. */
const INSERT_EVENTS = `INSERT INTO ${EVENTS_TABLE} (id, organization_id, event_type, table_id, body)
  SELECT e.id, e.organization_id, e.event_type, e.table_id, b.body::text
  FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::uuid[]) WITH ORDINALITY AS e(id, organization_id, event_type, table_id, ord)
  JOIN json_array_elements($5::json) WITH ORDINALITY AS b(body, ord) USING (ord)
  ON CONFLICT (id) DO NOTHING`;

/** The fan-out's events of a batch that no webhook wants (prepared: it runs for every batch). */
const STORE_EVENTS: PreparedStatement = { name: 'event_store_events', text: INSERT_EVENTS };

/**
 * The same events with their series, in one statement: the series' key checks run at its end, when the
 * events are there. DO UPDATE (a no-op) rather than DO NOTHING, so that series opened by an earlier
 * hand-over come back too.
 */
const STORE_EVENTS_AND_SERIES: PreparedStatement = {
  name: 'event_store_events_series_v2',
  text: `WITH stored AS (${INSERT_EVENTS})
    INSERT INTO ${DELIVERY_SERIES_TABLE} (id, event_id, webhook_id, trigger)
    SELECT gen_random_uuid(), p.event_id, p.webhook_id, 'event' FROM unnest($6::uuid[], $7::uuid[]) AS p(event_id, webhook_id)
    WHERE EXISTS (SELECT 1 FROM ${WEBHOOKS_TABLE} w WHERE w.id = p.webhook_id)
    ON CONFLICT (event_id, webhook_id) WHERE trigger = 'event' DO UPDATE SET trigger = EXCLUDED.trigger
    RETURNING id, event_id, webhook_id, finished_at IS NOT NULL AS finished, xmax = 0 AS created, attempts`,
};

/**
 * By primary key only, the finish read as a column: with `finished_at IS NULL` in its WHERE, a plan made while
 * the table was small or had no statistics scans the partial index of owed series (due_at, id) from end to end.
 */
const STILL_OWED: PreparedStatement = {
  name: 'event_store_still_owed',
  text: `SELECT id, finished_at IS NULL AS owed FROM ${DELIVERY_SERIES_TABLE} WHERE id = ANY($1::uuid[])`,
};

/**
 * The webhooks context's event store: events, and one delivery series per event and webhook (and per
 * explicit redelivery). Deliveries point at their series; the series says whether anything is still owed.
 */
@Injectable()
export class EventStoreRepository {
  constructor(private readonly db: Database) {}

  /**
   * Keeps the events (once each) and opens the fan-out's series for the webhooks given, in one statement
   * (atomic, one round trip, no transaction to open and commit); answers every series of these pairs, new
   * or already there, with whether it is finished.
   */
  async storeFanOut(events: StoredEvent[], pairs: Array<{ eventId: string; webhookId: string }>, bodies?: string): Promise<FanOutSeries[]> {
    return this.storeFanOutIn(this.db, events, pairs, bodies);
  }

  /**
   * The same within a transaction of the caller's, which commits the change the events are about with them.
   * `bodies`: the events' bodies as one JSON array text in their order, when the caller holds them as written.
   */
  async storeFanOutIn(db: Sql, events: StoredEvent[], pairs: Array<{ eventId: string; webhookId: string }>, bodies?: string): Promise<FanOutSeries[]> {
    const stored = [events.map((e) => e.id), events.map((e) => e.organizationId), events.map((e) => e.eventType), events.map((e) => e.tableId), bodies ?? jsonTexts(events.map((e) => e.body))];
    if (pairs.length === 0) {
      await db.query(STORE_EVENTS, stored);
      return [];
    }
    const { rows } = await db.query<FanOutSeries>(STORE_EVENTS_AND_SERIES, [...stored, pairs.map((p) => p.eventId), pairs.map((p) => p.webhookId)]);
    return rows;
  }

  /**
   * Keeps messages whose events no webhook wanted as one row each, in one statement: their events are not
   * read apart until a recovery asks for them. A message kept already (handed over again) is left as it is.
   */
  async storeMessages(messages: StoredMessage[]): Promise<void> {
    if (messages.length === 0) return;
    const values = messages.map((_, i) => `($${3 * i + 1}::uuid, $${3 * i + 2}::uuid, $${3 * i + 3})`).join(', ');
    await this.db.query(
      `INSERT INTO ${EVENT_MESSAGES_TABLE} (id, organization_id, body) VALUES ${values} ON CONFLICT (id) DO NOTHING`,
      messages.flatMap((message) => [message.id, message.organizationId, message.body]),
    );
  }

  /**
   * Deletes up to `batch` events, `batch` stored messages and `batch` delivery records older than the cutoff (an event's series go
   * with it), under a transaction-scoped advisory lock: answers undefined when another replica holds it.
   */
  async pruneBatch(cutoff: Date, batch: number): Promise<{ events: number; messages: number; deliveries: number } | undefined> {
    return this.db.transaction(async (tx) => {
      const {
        rows: [{ locked }],
      } = await tx.query<{ locked: boolean }>(`SELECT pg_try_advisory_xact_lock(hashtext($1)) AS locked`, [PRUNE_LOCK]);
      if (!locked) return undefined;
      const { rowCount: events } = await tx.query(
        `DELETE FROM ${EVENTS_TABLE} WHERE id IN (SELECT id FROM ${EVENTS_TABLE} WHERE received_at < $1 ORDER BY received_at LIMIT $2)`,
        [cutoff, batch],
      );
      const { rowCount: messages } = await tx.query(
        `DELETE FROM ${EVENT_MESSAGES_TABLE} WHERE id IN (SELECT id FROM ${EVENT_MESSAGES_TABLE} WHERE received_at < $1 ORDER BY received_at LIMIT $2)`,
        [cutoff, batch],
      );
      const { rowCount: deliveries } = await tx.query(
        `DELETE FROM ${DELIVERIES_TABLE} WHERE id IN (SELECT id FROM ${DELIVERIES_TABLE} WHERE created_at < $1 ORDER BY created_at LIMIT $2)`,
        [cutoff, batch],
      );
      return { events: events ?? 0, messages: messages ?? 0, deliveries: deliveries ?? 0 };
    });
  }

  /**
   * Opens a redelivery series for this webhook and event of the organization, if the store still holds
   * the event; answers `already` when a recover or redeliver of it for this webhook is still open (it is
   * not queued twice), `gone` when the event is not in the store.
   */
  async openRedelivery(organizationId: string, webhookId: string, eventId: string): Promise<OwedSeries | 'already' | 'gone'> {
    const { rowCount: stored } = await this.db.query(`SELECT 1 FROM ${EVENTS_TABLE} WHERE id = $1 AND organization_id = $2`, [eventId, organizationId]);
    if (!stored) return 'gone';
    const { rows } = await this.db.query<OwedSeries>(
      `WITH opened AS (
         INSERT INTO ${DELIVERY_SERIES_TABLE} (id, webhook_id, event_id, trigger) VALUES (gen_random_uuid(), $1, $2, 'redeliver')
         ON CONFLICT (webhook_id, event_id) WHERE trigger <> 'event' AND finished_at IS NULL DO NOTHING
         RETURNING id, webhook_id, event_id, trigger, attempts, due_at
       )
       SELECT ${OWED_COLUMNS} FROM opened s JOIN ${EVENTS_TABLE} e ON e.id = s.event_id`,
      [webhookId, eventId],
    );
    return rows[0] ?? 'already';
  }

  /**
   * A page of the stored events of the organization received in [since, until) of the given kinds that
   * this webhook never received with a 2xx and that no open recover or redeliver series of it holds,
   * oldest first, after the cursor given: what a recovery may send, and where the next page starts
   * (none after the last). The events kept one per row come first, then those kept a message at a time.
   * Whether the webhook wants each (its tables, its filter: a row event's data comes along) is for the
   * caller to decide.
   */
  async recoveryCandidates(
    organizationId: string,
    webhookId: string,
    window: { kinds: string[]; since: Date; until: Date },
    after: RecoveryCursor | undefined,
    limit: number,
  ): Promise<{ candidates: RecoveryCandidate[]; next?: RecoveryCursor }> {
    const inWindow = [organizationId, webhookId, window.since, window.until, window.kinds];
    const notSent = `NOT EXISTS (SELECT 1 FROM ${DELIVERIES_TABLE} d WHERE d.webhook_id = $2 AND d.event_id = e.id AND d.success)
         AND NOT EXISTS (
           SELECT 1 FROM ${DELIVERY_SERIES_TABLE} s WHERE s.webhook_id = $2 AND s.event_id = e.id AND s.trigger <> 'event' AND s.finished_at IS NULL)`;
    if (after?.store !== 'messages') {
      const { rows } = await this.db.query<RecoveryCandidate & { received_at: string }>(
        `SELECT e.id, e.event_type, e.table_id, CASE WHEN e.event_type LIKE 'row.%' THEN (e.body::jsonb)->'data' END AS data, NULL AS message_id,
           to_char(e.received_at AT TIME ZONE 'UTC', ${MICROSECONDS}) AS received_at
         FROM ${EVENTS_TABLE} e
         WHERE e.organization_id = $1 AND e.received_at >= $3 AND e.received_at < $4 AND e.event_type = ANY($5::text[])
           AND (e.received_at, e.id) > ($6::timestamptz, $7::uuid) AND ${notSent}
         ORDER BY e.received_at, e.id LIMIT $8`,
        [...inWindow, after?.received_at ?? '-infinity', after?.id ?? NO_ID, limit],
      );
      const last = rows[rows.length - 1];
      const next: RecoveryCursor = rows.length < limit ? { store: 'messages', received_at: '-infinity', id: NO_ID } : { store: 'events', received_at: last.received_at, id: last.id };
      return { candidates: rows.map(({ received_at: _cursor, ...candidate }) => candidate), next };
    }
    // A page of whole messages, in the order they arrived, up to `limit` of them and about MESSAGE_PAGE_BYTES of text.
    const { rows: page } = await this.db.query<{ id: string; received_at: string }>(
      `SELECT id, to_char(received_at AT TIME ZONE 'UTC', ${MICROSECONDS}) AS received_at FROM (
         SELECT id, received_at, sum(octet_length(body)) OVER (ORDER BY received_at, id) - octet_length(body) AS before
         FROM ${EVENT_MESSAGES_TABLE}
         WHERE organization_id = $1 AND received_at >= $2 AND received_at < $3 AND (received_at, id) > ($4::timestamptz, $5::uuid)
         ORDER BY received_at, id LIMIT $6) m
       WHERE before < $7 ORDER BY received_at, id`,
      [organizationId, window.since, window.until, after.received_at, after.id, limit, MESSAGE_PAGE_BYTES],
    );
    if (page.length === 0) return { candidates: [] };
    // Their events read apart, in the order they were written; one a recovery copied to a row of its own is read from there.
    const { rows } = await this.db.query<RecoveryCandidate>(
      `SELECT e.id, e.event_type, e.table_id, CASE WHEN e.event_type LIKE 'row.%' THEN (e.body::jsonb)->'data' END AS data, e.message_id
       FROM ${MESSAGE_EVENTS_VIEW} e
       WHERE e.message_id = ANY($3::uuid[]) AND e.organization_id = $1 AND e.event_type = ANY($4::text[])
         AND NOT EXISTS (SELECT 1 FROM ${EVENTS_TABLE} copied WHERE copied.id = e.id) AND ${notSent}
       ORDER BY e.received_at, e.message_id, e.ord`,
      [organizationId, webhookId, page.map((message) => message.id), window.kinds],
    );
    const last = page[page.length - 1];
    return { candidates: rows, next: { store: 'messages', received_at: last.received_at, id: last.id } };
  }

  /**
   * Opens a recovery series of this webhook for each of these events that has no open explicit series
   * yet, and counts them on the recovery in the same transaction; answers the new series ids. An event
   * kept with its message is copied to a row of its own first, which its series points at.
   */
  async openRecovery(recoveryId: string, webhookId: string, events: Array<Pick<RecoveryCandidate, 'id' | 'message_id'>>): Promise<string[]> {
    const messageIds = [...new Set(events.flatMap((event) => (event.message_id ? [event.message_id] : [])))];
    return this.db.transaction(async (tx) => {
      if (messageIds.length > 0) {
        await tx.query(
          `INSERT INTO ${EVENTS_TABLE} (id, organization_id, event_type, table_id, body, received_at)
           SELECT id, organization_id, event_type, table_id, body, received_at FROM ${MESSAGE_EVENTS_VIEW} WHERE message_id = ANY($1::uuid[]) AND id = ANY($2::uuid[])
           ON CONFLICT (id) DO NOTHING`,
          [messageIds, events.map((event) => event.id)],
        );
      }
      const { rows } = await tx.query<{ id: string }>(
        `INSERT INTO ${DELIVERY_SERIES_TABLE} (id, webhook_id, event_id, trigger)
         SELECT gen_random_uuid(), $1, e.id, 'recover' FROM unnest($2::uuid[]) AS e(id)
         ON CONFLICT (webhook_id, event_id) WHERE trigger <> 'event' AND finished_at IS NULL DO NOTHING
         RETURNING id`,
        [webhookId, [...new Set(events.map((event) => event.id))]],
      );
      await tx.query(`UPDATE ${RECOVERIES_TABLE} SET queued = queued + $2 WHERE id = $1`, [recoveryId, rows.length]);
      return rows.map((row) => row.id);
    });
  }

  /** These series with what their jobs need, oldest event first. */
  async seriesToQueue(seriesIds: string[]): Promise<OwedSeries[]> {
    const { rows } = await this.db.query<OwedSeries>(
      `SELECT ${OWED_COLUMNS} FROM ${DELIVERY_SERIES_TABLE} s JOIN ${EVENTS_TABLE} e ON e.id = s.event_id
       WHERE s.id = ANY($1::uuid[]) AND s.finished_at IS NULL ORDER BY e.received_at, e.id`,
      [seriesIds],
    );
    return rows;
  }

  /**
   * Unfinished series whose next attempt was due before `dueBefore`, oldest first, after the one a page
   * ended with. The page's end is Postgres's own text of its time (`cursor`): a Date keeps milliseconds
   * only, and the series a batch opened share one time to the microsecond, so a page that ended among
   * them would start again at its own beginning.
   */
  async overdueSeries(dueBefore: Date, after: SeriesCursor | undefined, limit: number): Promise<Array<OwedSeries & { cursor: SeriesCursor }>> {
    const { rows } = await this.db.query<OwedSeries & { due_text: string }>(
      `SELECT ${OWED_COLUMNS}, s.due_at::text AS due_text FROM ${DELIVERY_SERIES_TABLE} s JOIN ${EVENTS_TABLE} e ON e.id = s.event_id
       WHERE s.finished_at IS NULL AND s.due_at < $1 AND (s.due_at, s.id) > ($2::timestamptz, $3::uuid)
       ORDER BY s.due_at, s.id LIMIT $4`,
      [dueBefore, after?.dueAt ?? '-infinity', after?.id ?? '00000000-0000-0000-0000-000000000000', limit],
    );
    return rows.map(({ due_text, ...series }) => ({ ...series, cursor: { dueAt: due_text, id: series.id } }));
  }

  /** Which of these series still owe attempts. */
  async stillOwed(seriesIds: readonly string[]): Promise<Set<string>> {
    const { rows } = await this.db.query<{ id: string; owed: boolean }>(STILL_OWED, [seriesIds]);
    return new Set(rows.filter((row) => row.owed).map((row) => row.id));
  }

  /** A series that will send nothing (its webhook was disabled, deleted or unsubscribed meanwhile). */
  async finishSeries(seriesId: string): Promise<void> {
    await this.db.query(`UPDATE ${DELIVERY_SERIES_TABLE} SET finished_at = now() WHERE id = $1 AND finished_at IS NULL`, [seriesId]);
  }
}
