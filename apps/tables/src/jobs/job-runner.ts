import type { Stream } from 'node:stream';
import { Logger } from '@nestjs/common';
import type { Database, Sql } from '@platform/persistence';
import { BackgroundLoop } from '@platform/service';

/** `rows_done` reaches readers at least this often while a job runs. */
export const PROGRESS_INTERVAL_MS = 500;
/** Runs of one job that ended without an outcome (its process died, storage failed) before it is given up. */
export const MAX_JOB_ATTEMPTS = 5;

/** A claimed job: `attempts` counts the runs started before this one. */
export interface ClaimedJob {
  id: string;
  attempts: number;
}

/** What a run has done so far; the progress writer reads it while the run goes on. */
export interface JobProgress {
  rowsDone: number;
}

/** Where one kind of job is claimed and its progress written (its repository, over a `JobQueue`). */
export interface JobSource<J extends ClaimedJob> {
  claim(tx: Sql): Promise<J | undefined>;
  started(jobId: string): Promise<void>;
  progress(jobId: string, rowsDone: number): Promise<void>;
}

export interface JobKind<J extends ClaimedJob, P extends JobProgress> {
  /** For logs: `import`, `export`. */
  name: string;
  source: JobSource<J>;
  /** A new run's counts, from nothing. */
  newProgress(): P;
  /** Runs a claimed job to its end in the claim's transaction; what it commits is its outcome. */
  run(tx: Sql, job: J, progress: P): Promise<void>;
}

/** The process is stopping: the run is abandoned and rolled back, and another process takes the job up. */
class Stopping extends Error {}

/**
 * Runs one kind of job, one at a time, each in the transaction that claimed it: a job whose process dies
 * leaves nothing of its run behind, its claim lapses with the connection, and it runs again from the start.
 * While it runs, its `rows_done` is written every PROGRESS_INTERVAL_MS from another connection.
 */
export class JobRunner<J extends ClaimedJob, P extends JobProgress> {
  private readonly logger: Logger;
  private readonly loop: BackgroundLoop;
  private readonly streams = new Set<Stream & { destroy(error?: Error): unknown }>();

  constructor(
    private readonly db: Database,
    private readonly kind: JobKind<J, P>,
  ) {
    this.logger = new Logger(`JobRunner:${kind.name}`);
    this.loop = new BackgroundLoop(this.logger, () => this.runNext(), {
      name: `${kind.name}s`,
      owner: 'tables',
      failure: `${kind.name} run failed`,
      idleMs: 1_000,
      backoffMs: 1_000,
    });
  }

  start(): void {
    this.loop.start();
  }

  /** Abandons the run in flight (its streams end with an error, its transaction rolls back) and stops. */
  async stop(): Promise<void> {
    for (const stream of this.streams) stream.destroy(new Stopping('the process is stopping'));
    await this.loop.stop();
  }

  /** A stream the current run reads or writes: it is destroyed when the process stops, which ends the run. */
  holds<S extends Stream & { destroy(error?: Error): unknown }>(stream: S): S {
    this.streams.add(stream);
    stream.once('close', () => this.streams.delete(stream));
    return stream;
  }

  /** Answers whether it ran one (another may be waiting). */
  async runNext(): Promise<boolean> {
    const progress = this.kind.newProgress();
    let running: J | undefined;
    const writer = setInterval(() => {
      if (running) this.kind.source.progress(running.id, progress.rowsDone).catch((error) => this.logger.warn({ err: error }, `${this.kind.name} progress not written`));
    }, PROGRESS_INTERVAL_MS);
    try {
      return await this.db.transaction(async (tx) => {
        const job = await this.kind.source.claim(tx);
        if (!job) return false;
        await this.kind.source.started(job.id);
        running = job;
        await this.kind.run(tx, job, progress);
        return true;
      });
    } finally {
      clearInterval(writer);
    }
  }
}
