import type { Database, Sql } from '@platform/persistence';
import type { ClaimedJob, JobSource } from './job-runner';

/** The columns every kind of background job of the context has in its own table. */
export interface JobRow {
  id: string;
  organization_id: string;
  table_id: string;
  status: string;
  attempts: number;
  created_at: Date;
}

/** Unfinished jobs a claim looks at; more than this many held at once by other processes is not expected. */
const CLAIM_CANDIDATES = 20;

/**
 * The claim and progress of one kind of background job (imports, exports), kept in its table: unfinished
 * jobs are `queued` or `running`, and `rows_done`, `started_at` and `attempts` follow their runs. Each
 * kind's repository extends it with the statements of its own.
 */
export abstract class JobQueue<Row extends JobRow, Job extends ClaimedJob> implements JobSource<Job> {
  /**
   * @param table the job table, qualified
   * @param toJob what a claimed row is to the run
   * @param restart what else a run resets when it starts (`, column = value` terms), since a run starts from the beginning
   */
  protected constructor(
    protected readonly db: Database,
    private readonly table: string,
    private readonly toJob: (row: Row) => Job,
    private readonly restart = '',
  ) {}

  /** One job of an organization's table, as stored. */
  protected async stored(organizationId: string, tableId: string, jobId: string): Promise<Row | undefined> {
    const { rows } = await this.db.query<Row>(`SELECT * FROM ${this.table} WHERE id = $1 AND organization_id = $2 AND table_id = $3`, [jobId, organizationId, tableId]);
    return rows[0];
  }

  /**
   * Claims the oldest unfinished job nobody holds, for the caller's transaction: a transaction-scoped
   * advisory lock on its id holds it until that transaction ends or its connection dies, so a `running`
   * job is free again exactly when the process that ran it is gone. (A row lock would do the same, but
   * would also stop the progress that another connection writes to the row every second.) The caller's
   * transaction must read committed: the job is read again under the lock, and must be seen as it is now.
   */
  async claim(tx: Sql): Promise<Job | undefined> {
    const { rows } = await tx.query<Row>(`SELECT * FROM ${this.table} WHERE status IN ('queued', 'running') ORDER BY created_at LIMIT ${CLAIM_CANDIDATES}`);
    for (const row of rows) {
      const { rows: held } = await tx.query<{ held: boolean }>(`SELECT pg_try_advisory_xact_lock(hashtext('${this.table}'), hashtext($1)) AS held`, [row.id]);
      if (!held[0].held) continue;
      // Read again under the lock: the holder that just let go may have finished it, or counted a run.
      const { rows: current } = await tx.query<Row>(`SELECT * FROM ${this.table} WHERE id = $1 AND status IN ('queued', 'running')`, [row.id]);
      if (current[0]) return this.toJob(current[0]);
    }
    return undefined;
  }

  /** Marks a claimed job running, from nothing done: each claim counts one attempt. */
  async started(jobId: string): Promise<void> {
    await this.db.query(
      `UPDATE ${this.table} SET status = 'running', started_at = now(), rows_done = 0, attempts = attempts + 1${this.restart}
       WHERE id = $1 AND status IN ('queued', 'running')`,
      [jobId],
    );
  }

  /** Outside the job's transaction, so readers see it move. */
  async progress(jobId: string, rowsDone: number): Promise<void> {
    await this.db.query(`UPDATE ${this.table} SET rows_done = $2 WHERE id = $1 AND status IN ('queued', 'running')`, [jobId, rowsDone]);
  }
}
