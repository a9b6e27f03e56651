import type { JetStreamClient, NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { Database, Outbox, OutboxEntry, Sql, TransactionOptions } from '@platform/persistence';
import type { LargePayloads } from './large-payloads';
import { eventPayloads } from './payload-buckets';

export interface OutboxRelayOptions {
  batchSize?: number;
  /** Told how many events were set aside (for metrics). */
  onParked?: (count: number) => void;
}

/**
 * How many times an event's publish may fail while others' succeed before it is set aside. Failures
 * that every event of a batch meets alike (NATS away, the stream without a leader) never count.
 */
export const PUBLISH_ATTEMPTS_BEFORE_PARKING = 3;

const encoder = new TextEncoder();

/**
 * Publishes a context's outbox to JetStream, one batch a call (the process's background loop calls it:
 * OutboxRelayModule in @platform/service). A batch is taken out of the outbox (FOR UPDATE SKIP LOCKED) and
 * published with the event id as message id before its transaction commits: several relays share the work,
 * and a relay that dies mid-batch leaves its rows to be published again, which JetStream drops as duplicates.
 *
 * An event too large for one message is published as a claim check (LargePayloads). An event whose
 * publish keeps failing while the events around it go out is set aside in the outbox's parked table
 * (Outbox.park) after PUBLISH_ATTEMPTS_BEFORE_PARKING tries, so it never holds back another event; an
 * operator puts it back (`admin outbox retry`).
 */
export class OutboxRelay {
  readonly batchSize: number;
  private readonly payloads: LargePayloads;
  /** One client for every publish: `nc.jetstream()` builds a client and its API objects on each call. */
  private readonly js: JetStreamClient;
  /** Failed publishes of events that others' success showed to be their own fault, by event id. */
  private readonly ownFailures = new Map<string, number>();
  /**
   * A batch's transaction: opened by the take, in the same round trip as BEGIN; its commit does not wait for
   * the disk: if a crash of Postgres undoes it, its events are back in the outbox and go out again, and
   * JetStream drops them as duplicates (the message id is the event's).
   */
  private readonly transaction: TransactionOptions;

  constructor(
    private readonly database: Database,
    private readonly outbox: Outbox,
    private readonly nc: NatsConnection,
    private readonly logger: Logger,
    private readonly options: OutboxRelayOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 500;
    this.payloads = eventPayloads(nc);
    this.js = nc.jetstream();
    this.transaction = { synchronousCommit: false, opening: outbox.takeStatement(this.batchSize) };
  }

  /** Publishes one batch; answers how many events left the outbox. */
  async relayBatch(): Promise<number> {
    return this.database.transaction<number, OutboxEntry>(async (tx, entries) => {
      if (entries.length === 0) return 0;
      // Published before COMMIT: a failed publish rolls the batch back into the outbox.
      const outcomes = await Promise.allSettled(entries.map((entry) => this.publish(entry)));
      const failed = entries.flatMap((entry, i) => {
        const outcome = outcomes[i];
        return outcome.status === 'rejected' ? [{ entry, error: outcome.reason as Error }] : [];
      });
      if (this.ownFailures.size > 0) for (const [i, entry] of entries.entries()) if (outcomes[i].status === 'fulfilled') this.ownFailures.delete(entry.id);
      if (failed.length === 0) return entries.length;
      await this.setAside(tx, failed, failed.length < entries.length);
      return entries.length - failed.length;
    }, this.transaction);
  }

  /**
   * Parks the failed events within `tx` once each has failed often enough while others went out;
   * otherwise throws, so the batch rolls back and comes again (JetStream drops the repeats).
   */
  private async setAside(tx: Sql, failed: Array<{ entry: OutboxEntry; error: Error }>, othersWent: boolean): Promise<void> {
    if (!othersWent) throw failed[0].error;
    const attempts = failed.map(({ entry }) => {
      const count = (this.ownFailures.get(entry.id) ?? 0) + 1;
      this.ownFailures.set(entry.id, count);
      return count;
    });
    if (attempts.some((count) => count < PUBLISH_ATTEMPTS_BEFORE_PARKING)) throw failed[0].error;
    await this.outbox.park(tx, failed.map(({ entry, error }) => ({ entry, error: String(error?.message ?? error) })));
    for (const { entry, error } of failed) {
      this.ownFailures.delete(entry.id);
      this.logger.error({ err: error, schema: this.outbox.schema, eventId: entry.id, subject: entry.subject }, 'event set aside: it cannot be published');
    }
    this.options.onParked?.(failed.length);
  }

  /** An event too large for one message goes as a claim check named by its id, so a retried publish replaces it. */
  private async publish(entry: OutboxEntry): Promise<void> {
    const { data, headers } = await this.payloads.seal(encoder.encode(entry.payload), undefined, entry.id);
    await this.js.publish(entry.subject, data, { msgID: entry.id, headers });
  }

  /** Seconds since the oldest event still waiting was written; 0 when the outbox is empty. */
  lagSeconds(): Promise<number> {
    return this.outbox.lagSeconds(this.database);
  }
}
