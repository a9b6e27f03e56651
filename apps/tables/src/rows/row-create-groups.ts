import { Injectable } from '@nestjs/common';
import type { DomainEvent } from '@contracts';
import { currentQueryScope, fitsOneEntry, QueryScope, runInQueryScope } from '@platform/persistence';
import type { Field } from '../fields/field';
import type { UserTable } from '../tables/user-table';
import { RowRecord, writtenRecord } from './row-record';
import { RowsRepository } from './rows.repository';

/** Statements of one table's creates that may run at once; creates arriving meanwhile wait and go together. */
const WRITING_PER_TABLE = 2;

export interface RowCreate {
  id: string;
  values: Map<Field, unknown>;
  event: DomainEvent;
}

/** What became of a create: written (or not, `record` undefined: the table's version moved), or left for its caller to write alone. */
export type GroupedCreate = { record: RowRecord | undefined } | 'alone';

interface Waiting {
  create: RowCreate;
  /** The event's JSON, made when the create is gathered with others (bodyOf): a create written alone never needs it. */
  body?: string;
  scope: QueryScope | undefined;
  settle: (outcome: GroupedCreate) => void;
  fail: (error: unknown) => void;
}

interface TableWrites {
  table: UserTable;
  writing: number;
  waiting: Waiting[];
}

/**
 * Single row creates of one table version, gathered while earlier ones are being written: the first
 * creates go at once, each as the one statement it always was; those that arrive while WRITING_PER_TABLE
 * statements are in flight wait for one to end and then go together, in one statement with one outbox
 * entry (RowsRepository.createTogether), so under load a create costs a share of a statement, a commit and
 * a message instead of one of each, and alone it waits for nothing. Only creates of one table (so of one
 * organization) ever share a statement. A create the shared statement did not write (its id was taken: a
 * create sent again; or the statement failed) is answered 'alone': its caller writes it by itself, which
 * tells each case apart as a single create does.
 */
@Injectable()
export class RowCreateGroups {
  private readonly tables = new Map<string, TableWrites>();

  constructor(private readonly rows: RowsRepository) {}

  write(table: UserTable, create: RowCreate): Promise<GroupedCreate> {
    // A unique field's refusal names one create; a shared statement would fail for all of them.
    if (table.fields.some((field) => field.options.is_unique)) return Promise.resolve('alone');
    const key = `${table.id}:${table.version}`;
    let writes = this.tables.get(key);
    if (!writes) this.tables.set(key, (writes = { table, writing: 0, waiting: [] }));
    const queue = writes;
    return new Promise<GroupedCreate>((settle, fail) => {
      queue.waiting.push({ create, scope: currentQueryScope(), settle, fail });
      if (queue.writing < WRITING_PER_TABLE) void this.drain(key, queue);
    });
  }

  private async drain(key: string, writes: TableWrites): Promise<void> {
    writes.writing += 1;
    try {
      while (writes.waiting.length > 0) await this.writeTogether(writes.table, nextGroup(writes.waiting));
    } finally {
      writes.writing -= 1;
      if (writes.writing === 0 && writes.waiting.length === 0) this.tables.delete(key);
    }
  }

  /** In the scope of the caller that waits least, so that no create is written after its caller gave up. */
  private async writeTogether(table: UserTable, group: Waiting[]): Promise<void> {
    const scope = group.reduce<QueryScope | undefined>((first, { scope: next }) => (!first || (next && next.deadline < first.deadline) ? next : first), undefined);
    const run = <T>(work: () => Promise<T>) => (scope ? runInQueryScope(scope, work) : work());
    if (group.length === 1) {
      const [only] = group;
      await run(() => this.rows.create(table, only.create.id, only.create.values, only.create.event)).then(
        (record) => only.settle({ record }),
        (error: unknown) => only.fail(error),
      );
      return;
    }
    try {
      const { written, at } = await run(() => this.rows.createTogether(table, group.map((waiting) => ({ ...waiting.create, body: bodyOf(waiting) }))));
      for (const { create, settle } of group) settle(written.has(create.id) ? { record: writtenRecord(table.fields, create.id, create.values, at) } : 'alone');
    } catch {
      // Whatever failed the shared statement, each create meets it again alone and answers it as its own.
      for (const { settle } of group) settle('alone');
    }
  }
}

/** The event's JSON, once: its length bounds what one statement, and so one message, carries. */
function bodyOf(waiting: Waiting): string {
  return (waiting.body ??= JSON.stringify(waiting.create.event));
}

/** Takes the next creates from the front of `waiting`: as many as one outbox entry carries (fitsOneEntry). */
function nextGroup(waiting: Waiting[]): Waiting[] {
  let count = 1;
  let bytes = waiting.length > 1 ? bodyOf(waiting[0]).length : 0;
  while (count < waiting.length && fitsOneEntry(count + 1, bytes + bodyOf(waiting[count]).length)) {
    bytes += bodyOf(waiting[count]).length;
    count += 1;
  }
  return waiting.splice(0, count);
}
