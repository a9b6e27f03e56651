import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { BackgroundLoop, counter, gauge } from '@platform/service';
import { ObjectDeletion, ObjectDeletionsRepository } from './object-deletions.repository';
import { ObjectStorage } from './object-storage';

/** Uploads never attached this long after they were handed out are removed. */
export const ABANDONED_UPLOAD_SECONDS = 24 * 60 * 60;
const BATCH = 100;
/** Long enough for one batch against a slow storage; a dead replica's lease lapses after it. */
const LEASE_SECONDS = 120;
const IDLE_MS = 1_000;
const MAX_RETRY_SECONDS = 30;
const BACKLOG_EVERY_MS = 15_000;

const deleted = counter('attachment_objects_deleted_total', 'Objects removed from storage by the cleanup');
const failures = counter('attachment_cleanup_failures_total', 'Cleanup batches storage refused or did not answer (retried)');
const pending = gauge('attachment_deletions_pending', 'Objects waiting to be removed from storage');
const oldest = gauge('attachment_deletions_oldest_seconds', 'Age of the oldest object waiting to be removed');

/** 1 s, 2 s, 4 s ... then every 30 s: storage that comes back is caught up with soon, and never hammered. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(MAX_RETRY_SECONDS, 2 ** Math.max(0, attempts - 1));
}

/**
 * Drains the deletion queue after the changes commit, and sweeps uploads nobody attached. Every replica
 * of the tables service runs one; they share the queue through leases. Storage failures only postpone a
 * deletion: it is retried until storage confirms.
 */
@Injectable()
export class FileCleanup implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('FileCleanup');
  private readonly loop = new BackgroundLoop(this.logger, () => this.nextPass(), {
    name: 'attachment-file-cleanup',
    owner: 'tables',
    // The database itself failed: nothing was lost, the queue is still there.
    failure: 'file cleanup pass failed',
    idleMs: IDLE_MS,
    backoffMs: 500,
  });
  private backlogAt = 0;

  constructor(
    private readonly deletions: ObjectDeletionsRepository,
    private readonly storage: ObjectStorage,
  ) {}

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  /** Before the database and storage clients close, so the pass in flight finishes with them. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.loop.stop();
  }

  /** One pass: sweeps abandoned uploads, then works one leased batch; answers how many deletions it took. */
  async pass(): Promise<number> {
    await this.deletions.sweepAbandonedUploads(ABANDONED_UPLOAD_SECONDS, BATCH);
    const batch = await this.deletions.lease(BATCH, LEASE_SECONDS);
    const keys = batch.filter((deletion) => !deletion.isPrefix);
    await Promise.all([this.deleteKeys(keys), ...batch.filter((deletion) => deletion.isPrefix).map((deletion) => this.deletePrefix(deletion))]);
    return batch.length;
  }

  private async deleteKeys(batch: ObjectDeletion[]): Promise<void> {
    if (batch.length === 0) return;
    try {
      await this.storage.deleteKeys(batch.map((deletion) => deletion.objectKey));
    } catch (error) {
      await this.postpone(batch, error);
      return;
    }
    await this.deletions.done(batch.map((deletion) => deletion.id));
    deleted.inc(batch.length);
  }

  /** A table's objects, one listing at a time; the deletion stays queued until nothing is left under it. */
  private async deletePrefix(deletion: ObjectDeletion): Promise<void> {
    let keys: string[];
    try {
      keys = await this.storage.keysUnder(deletion.objectKey);
      await this.storage.deleteKeys(keys);
    } catch (error) {
      await this.postpone([deletion], error);
      return;
    }
    if (keys.length === 0) {
      await this.deletions.done([deletion.id]);
      return;
    }
    deleted.inc(keys.length);
    await this.deletions.continueSoon(deletion.id);
  }

  private async postpone(batch: ObjectDeletion[], error: unknown): Promise<void> {
    failures.inc();
    const attempts = Math.max(...batch.map((deletion) => deletion.attempts));
    const delay = retryDelaySeconds(attempts);
    this.logger.warn({ err: error, objects: batch.length, attempts, retryInSeconds: delay }, 'storage cleanup failed; will retry');
    await this.deletions.retryLater(batch.map((deletion) => deletion.id), delay, (error as Error).message ?? String(error));
  }

  private async reportBacklog(): Promise<void> {
    if (Date.now() - this.backlogAt < BACKLOG_EVERY_MS) return;
    this.backlogAt = Date.now();
    const backlog = await this.deletions.backlog();
    pending.set(backlog.pending);
    oldest.set(backlog.oldestSeconds);
  }

  /** Reports the backlog now and then, and works one batch; answers whether it was full (more may wait). */
  private async nextPass(): Promise<boolean> {
    await this.reportBacklog();
    return (await this.pass()) === BATCH;
  }
}
