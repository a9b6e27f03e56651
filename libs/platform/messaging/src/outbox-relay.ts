import { JetStreamClient } from 'nats';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';

export interface OutboxRelayOptions {
  schema: string;
  batchSize?: number;
  /** Pause between polls when the outbox is empty. */
  idleMs?: number;
  /** Told how many events each batch published (for metrics). */
  onPublished?: (count: number) => void;
}

interface OutboxRow {
  seq: string;
  id: string;
  subject: string;
  payload: string;
}

const encoder = new TextEncoder();

/**
 * Publishes a context's outbox to JetStream. A batch is claimed with FOR UPDATE SKIP LOCKED, published
 * with the event id as message id, and deleted in the same transaction: several relays share the work,
 * and a relay that dies mid-batch leaves its rows to be published again, which JetStream drops as duplicates.
 */
export class OutboxRelay {
  private running = false;
  private loop?: Promise<void>;
  private wake?: () => void;
  private readonly batchSize: number;
  private readonly idleMs: number;

  constructor(
    private readonly dataSource: DataSource,
    private readonly js: JetStreamClient,
    private readonly logger: Logger,
    private readonly options: OutboxRelayOptions,
  ) {
    if (!/^[a-z_][a-z0-9_]*$/.test(options.schema)) throw new Error(`Unsafe schema name: ${options.schema}`);
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
  }

  /** Publishes one batch; answers how many events left the outbox. */
  async relayBatch(): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const rows: OutboxRow[] = await manager.query(
        `SELECT seq, id, subject, payload::text AS payload FROM "${this.options.schema}".outbox
         ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [this.batchSize],
      );
      if (rows.length === 0) return 0;
      await Promise.all(rows.map((row) => this.js.publish(row.subject, encoder.encode(row.payload), { msgID: row.id })));
      await manager.query(`DELETE FROM "${this.options.schema}".outbox WHERE seq = ANY($1::bigint[])`, [rows.map((row) => row.seq)]);
      return rows.length;
    });
  }

  /** Seconds since the oldest event still waiting was written; 0 when the outbox is empty. */
  async lagSeconds(): Promise<number> {
    const [row] = await this.dataSource.query(
      `SELECT COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)::float AS lag FROM "${this.options.schema}".outbox`,
    );
    return Number(row?.lag ?? 0);
  }

  /** One cheap statement, so that an idle relay does not open a transaction on every poll. */
  private async hasPending(): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM "${this.options.schema}".outbox LIMIT 1`);
    return rows.length > 0;
  }

  private async run(): Promise<void> {
    let failures = 0;
    let idle = false;
    while (this.running) {
      try {
        if (idle && !(await this.hasPending())) {
          await this.pause(this.idleMs);
          continue;
        }
        const count = await this.relayBatch();
        if (count > 0) this.options.onPublished?.(count);
        failures = 0;
        idle = count === 0;
        if (count < this.batchSize) await this.pause(this.idleMs);
      } catch (error) {
        failures += 1;
        this.logger.warn({ err: error, schema: this.options.schema }, 'outbox relay batch failed; will retry');
        await this.pause(Math.min(5_000, 100 * 2 ** Math.min(failures, 6)));
      }
    }
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
