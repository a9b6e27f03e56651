import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { DomainEvent, RowAction, RowView, ServiceResult } from '@contracts';
import { AppError } from '@platform/errors';
import { isPgError, PgErrorCode, type Sql } from '@platform/persistence';
import { AttachmentFiles, CheckedUploads } from '../attachments/attachment-files';
import type { Field } from '../fields/field';
import type { UserTable } from '../tables/user-table';
import { TABLES_OUTBOX } from '../tables-schema';
import { atItem } from './batch-items';
import { isEmptyValue, validateRowData } from './field-values';
import { checkRowValuesSize } from './row-size';
import { changedValues } from './row-changes';
import { rowEvent, rowUpdatedEvent } from './row-events';
import { RowRecord, rowView } from './row-record';
import { RowBatchesService } from './row-batches.service';
import { RowsRepository } from './rows.repository';
import { withUniqueValues } from './unique-values';

/** A row of the key another upsert inserted between this one's read and its write; the whole batch runs again. */
class KeyTakenMeanwhile extends Error {}

/** Times a batch runs again after losing such a race before the client is told to retry. */
const UPSERT_ATTEMPTS = 3;

/** What one item of the batch does: its row's id, the whole row to write (absent: unchanged), and what was there. */
interface Plan {
  id: string;
  action: RowAction;
  values?: Map<Field, unknown>;
  previous?: RowView;
  changed?: string[];
}

/** Equal for two values of the key field exactly when its unique index holds them equal. */
function keyOf(field: Field, value: unknown): string {
  return field.fieldType === 'number' ? String(Number(value)) : String(value);
}

/**
 * A batch that creates or updates each row by the value of one unique field (`upsert_on`). The rows
 * holding the batch's keys are read and locked first, so each item is checked as the create or the
 * update it is, and only changed rows are written: all of them in one INSERT ... ON CONFLICT.
 */
@Injectable()
export class RowUpsertsService {
  constructor(
    private readonly batches: RowBatchesService,
    private readonly rows: RowsRepository,
    private readonly files: AttachmentFiles,
  ) {}

  async upsert(
    organizationId: string,
    tableId: string,
    items: ReadonlyArray<{ data: Record<string, unknown> }>,
    upsertOn: string,
  ): Promise<ServiceResult<RowView[]>> {
    const uploads = await this.files.checkUploads({ id: tableId, organizationId }, items.map((item) => item.data));
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.batches.inTable(organizationId, tableId, (client, table) => this.write(client, table, items, upsertOn, uploads));
      } catch (error) {
        // Upserts of the same new keys race: the rows another one inserted meanwhile are locked in the order of its
        // items by its INSERT ... ON CONFLICT and in id order by a retry's read, so Postgres may end one in a deadlock.
        if (!(error instanceof KeyTakenMeanwhile) && !isPgError(error, PgErrorCode.DeadlockDetected)) throw error;
        if (attempt >= UPSERT_ATTEMPTS) throw AppError.conflict('Other writes kept creating rows with these values; try again');
      }
    }
  }

  private async write(
    client: Sql,
    table: UserTable,
    items: ReadonlyArray<{ data: Record<string, unknown> }>,
    upsertOn: string,
    uploads: CheckedUploads,
  ): Promise<ServiceResult<RowView[]>> {
    const key = table.fields.find((field) => field.slug === upsertOn);
    if (!key?.options.is_unique) throw AppError.validation('upsert_on', 'must be the slug of an is_unique field of this table');
    const values = items.map((item, i) => atItem(`rows[${i}]`, () => validateRowData(table.fields, item.data, 'update')));
    const keys = new Map<string, number>();
    values.forEach((row, i) => {
      const value = row.get(key);
      if (isEmptyValue(value)) throw AppError.validation(`rows[${i}].data.${key.slug}`, 'is required: the batch upserts on it');
      const seen = keys.get(keyOf(key, value));
      if (seen !== undefined) throw AppError.validation(`rows[${i}].data.${key.slug}`, `has the same value as rows[${seen}]`);
      keys.set(keyOf(key, value), i);
    });
    const stored = await this.rows.findManyByUniqueForUpdate(client, table, key, values.map((row) => row.get(key)));
    const current = new Map(stored.map((record) => [keyOf(key, rowView(table.fields, record).data[key.slug]), record]));
    const plans: Plan[] = [];
    for (const [i, row] of values.entries()) {
      const before = current.get(keyOf(key, row.get(key)));
      plans.push(before ? await this.updatePlan(client, table, before, row, uploads, i) : await this.createPlan(client, table, items[i].data, uploads, i));
    }
    const writes = plans.filter((plan) => plan.values);
    const written = writes.length
      ? await withUniqueValues(table, () => this.rows.upsertMany(client, table, key, writes as Array<Required<Plan>>), {
          values: writes.map((plan) => plan.values as Map<Field, unknown>),
          pathOf: (k) => `rows[${plans.indexOf(writes[k])}].data`,
        })
      : new Map();
    const views: RowView[] = [];
    const events: DomainEvent[] = [];
    for (const plan of plans) {
      if (!plan.values) {
        views.push({ ...(plan.previous as RowView), data: await this.files.present(table, (plan.previous as RowView).data) });
        continue;
      }
      const record = written.get(plan.id);
      if (!record || record.inserted !== (plan.action === 'created')) throw new KeyTakenMeanwhile();
      const row = rowView(table.fields, record);
      await this.files.present(table, row.data);
      views.push(row);
      if (plan.action === 'created') events.push(rowEvent('row.created', table, row.id, row.data));
      else {
        const previous = await this.files.present(table, (plan.previous as RowView).data);
        events.push(rowUpdatedEvent(table, row.id, row.data, previous, plan.changed as string[]));
      }
    }
    await TABLES_OUTBOX.write(client, events);
    return { data: views, actions: plans.map((plan) => plan.action) };
  }

  /** The stored row with the item's values merged in, or nothing to write when no value differs. */
  private async updatePlan(client: Sql, table: UserTable, before: RowRecord, values: Map<Field, unknown>, uploads: CheckedUploads, i: number): Promise<Plan> {
    const previous = rowView(table.fields, before);
    await this.files.settle(client, table, values, uploads, previous.data, `rows[${i}].data`);
    const changed = changedValues(values, previous.data);
    if (changed.size === 0) return { id: before.id, action: 'unchanged', previous };
    const merged = new Map(table.fields.map((field) => [field, changed.has(field) ? changed.get(field) : previous.data[field.slug]]));
    checkRowValuesSize(table.fields, merged, `rows[${i}].data`);
    return { id: before.id, action: 'updated', values: merged, previous, changed: [...changed.keys()].map((field) => field.slug) };
  }

  /** A new row: the item is checked again as a create (required fields present). */
  private async createPlan(client: Sql, table: UserTable, data: Record<string, unknown>, uploads: CheckedUploads, i: number): Promise<Plan> {
    const values = atItem(`rows[${i}]`, () => validateRowData(table.fields, data, 'create'));
    await this.files.settle(client, table, values, uploads, undefined, `rows[${i}].data`);
    return { id: randomUUID(), action: 'created', values };
  }
}
