import { JetStreamClient } from 'nats';
import type { Logger } from 'pino';
import { Database, Outbox, outboxChannel } from '@platform/persistence';

export interface OutboxRelayOptions {
  batchSize?: number;
  /** Pause between polls when the outbox is empty. */
  idleMs?: number;
  /** Told how many events each batch published (for metrics). */
  onPublished?: (count: number) => void;
}

const encoder = new TextEncoder();
/** While the relay listens for commits, polling is only the safety net for a notification that was lost. */
const LISTENING_IDLE_MS = 1_000;
/** How soon a relay that could not LISTEN tries again (polling every idleMs meanwhile). */
const LISTEN_RETRY_MS = 5_000;

/**
 * Publishes a context's outbox to JetStream. A batch is taken out of the outbox (FOR UPDATE SKIP LOCKED)
 * and published with the event id as message id before its transaction commits: several relays share the work,
 * and a relay that dies mid-batch leaves its rows to be published again, which JetStream drops as duplicates.
 * A connection of its own LISTENs on the outbox's channel (see outboxWakeSql), so a commit wakes the
 * relay at once; while it cannot listen, it polls every idleMs.
 */
export class OutboxRelay {
  private running = false;
  private loop?: Promise<void>;
  private wake?: () => void;
  private wakeOnCommit?: () => void;
  private readonly batchSize: number;
  private readonly idleMs: number;
  /** A commit was announced since the current batch started. */
  private notified = false;
  private unlisten?: () => Promise<void>;
  private listenAfter = 0;

  constructor(
    private readonly database: Database,
    private readonly outbox: Outbox,
    private readonly js: JetStreamClient,
    private readonly logger: Logger,
    private readonly options: OutboxRelayOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 500;
    this.idleMs = options.idleMs ?? 20;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    await this.unlisten?.();
  }

  /** Publishes one batch; answers how many events left the outbox. */
  async relayBatch(): Promise<number> {
    return this.database.transaction(async (tx) => {
      const entries = await this.outbox.take(tx, this.batchSize);
      if (entries.length === 0) return 0;
      // Published before COMMIT: a failed publish rolls the batch back into the outbox.
      await Promise.all(entries.map((entry) => this.js.publish(entry.subject, encoder.encode(entry.payload), { msgID: entry.id })));
      return entries.length;
    });
  }

  /** Seconds since the oldest event still waiting was written; 0 when the outbox is empty. */
  lagSeconds(): Promise<number> {
    return this.outbox.lagSeconds(this.database);
  }

  private async listen(): Promise<void> {
    if (this.unlisten || Date.now() < this.listenAfter) return;
    this.listenAfter = Date.now() + LISTEN_RETRY_MS;
    const listening: { lost: boolean; stop?: () => Promise<void> } = { lost: false };
    listening.stop = await this.database.listen(
      outboxChannel(this.outbox.schema),
      () => {
        this.notified = true;
        this.wakeOnCommit?.();
      },
      // A connection lost while listening: back to polling until the next attempt.
      () => {
        listening.lost = true;
        if (listening.stop && this.unlisten === listening.stop) this.unlisten = undefined;
      },
    );
    if (!listening.lost) this.unlisten = listening.stop;
  }

  private async run(): Promise<void> {
    let failures = 0;
    let idle = false;
    while (this.running) {
      try {
        await this.listen().catch((error: unknown) => this.logger.warn({ err: error, schema: this.outbox.schema }, 'outbox relay cannot listen; polling'));
        const idleMs = this.unlisten ? LISTENING_IDLE_MS : this.idleMs;
        const announced = this.notified;
        this.notified = false;
        if (idle && !announced && !(await this.outbox.hasPending(this.database))) {
          await this.pause(idleMs);
          continue;
        }
        const count = await this.relayBatch();
        if (count > 0) this.options.onPublished?.(count);
        failures = 0;
        idle = count === 0;
        if (count < this.batchSize) await this.pause(idleMs);
      } catch (error) {
        failures += 1;
        this.logger.warn({ err: error, schema: this.outbox.schema }, 'outbox relay batch failed; will retry');
        await this.pause(Math.min(5_000, 100 * 2 ** Math.min(failures, 6)), false);
      }
    }
  }

  /** Waits `ms`; stop() ends any wait, a commit ends it unless this is a back-off after a failure. */
  private pause(ms: number, untilCommit = true): Promise<void> {
    if (untilCommit && this.notified) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      const wake = () => {
        clearTimeout(timer);
        resolve();
      };
      this.wake = wake;
      this.wakeOnCommit = untilCommit ? wake : undefined;
    });
  }
}
