import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import type { Database, Sql } from '@platform/persistence';
import { type ClaimedJob, type JobKind, type JobProgress, JobRunner } from './job-runner';

/** A provider that runs one kind of job, through its own JobRunner, from the application's start until its shutdown. */
export abstract class JobWorker<J extends ClaimedJob, P extends JobProgress> implements OnApplicationBootstrap, BeforeApplicationShutdown {
  protected readonly runner: JobRunner<J, P>;

  protected constructor(db: Database, kind: Omit<JobKind<J, P>, 'run'>) {
    this.runner = new JobRunner(db, { ...kind, run: (tx, job, progress) => this.run(tx, job, progress) });
  }

  /** Runs a claimed job to its end in the claim's transaction; what it commits is its outcome. */
  protected abstract run(tx: Sql, job: J, progress: P): Promise<void>;

  onApplicationBootstrap(): void {
    this.runner.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.runner.stop();
  }
}
