import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { CreateTableBody, ExistingTableIds, MAX_FIELDS_PER_TABLE, ServiceResult, TableDetail, TableListItem, UpdateTableBody } from '@contracts';
import { AppError } from '@platform/errors';
import { conflictOnUniqueViolation, Database, Sql } from '@platform/persistence';
import { ObjectDeletionsRepository } from '../attachments/object-deletions.repository';
import type { Field } from '../fields/field';
import { newField } from '../fields/field-definitions';
import { validateFieldOptions } from '../fields/field-options';
import { slugOrIdSlug } from '../fields/slug';
import { compileFilter } from '../filter/filter-compiler';
import { SqlParameters } from '../filter/sql-parameters';
import { qualified, rowsTableName } from '../storage/identifiers';
import { alterRowsTable, createRowsTable, dropRowsTable } from '../storage/rows-ddl';
import { needsRebuild, rebuildRowsTable } from '../storage/rows-table-rebuild';
import { forgetPendingIndexes, recordPendingIndexes, yieldIndexBuilds } from '../storage/pending-indexes';
import { applyOptionChange } from './field-option-changes';
import { tableEvent } from './table-events';
import { tableDetail, tableListItem, UserTable } from './user-table';
import { UserTableRepository } from './user-table.repository';
import { UserTableCache } from './user-table.cache';
import { TABLES_OUTBOX } from '../tables-schema';
import { ImportsRepository } from '../imports/imports.repository';

function duplicateTable(slug: string): AppError {
  return AppError.conflict(`A table with the slug ${slug} already exists`);
}

/** Tables and their fields: metadata and the physical rows table change in one transaction with the event. */
@Injectable()
export class TablesService {
  constructor(
    private readonly db: Database,
    private readonly tables: UserTableRepository,
    private readonly cache: UserTableCache,
    private readonly fileDeletions: ObjectDeletionsRepository,
    private readonly imports: ImportsRepository,
  ) {}

  /**
   * A table whose import is queued or running does not change until the import ends: the import holds it
   * as every row write does, and a change would otherwise wait for all of it (or alter it midway).
   */
  private async notImporting(organizationId: string, tableId: string): Promise<void> {
    if (await this.imports.hasUnfinished(this.db, organizationId, tableId)) throw AppError.conflict('An import of this table is queued or running; change the table when it has ended');
  }

  async list(organizationId: string, page: number, limit: number): Promise<ServiceResult<TableListItem[]>> {
    const { tables, total } = await this.tables.page(organizationId, limit, (page - 1) * limit);
    return { data: tables.map(tableListItem), pagination: { page, limit, total } };
  }

  async get(organizationId: string, tableId: string): Promise<ServiceResult<TableDetail>> {
    const table = await this.tables.find(organizationId, tableId);
    if (!table) throw AppError.notFound('Table');
    return { data: tableDetail(table) };
  }

  async existingIds(organizationId: string, tableIds: string[]): Promise<ServiceResult<ExistingTableIds>> {
    return { data: { table_ids: await this.tables.existingIds(organizationId, tableIds) } };
  }

  async create(organizationId: string, body: CreateTableBody): Promise<ServiceResult<TableDetail>> {
    const id = randomUUID();
    const slug = slugOrIdSlug(body.name, 't', id);
    const taken = new Set<string>();
    const fields = body.fields.map((input, i) => newField(input, `fields[${i}]`, taken));
    const storageName = rowsTableName(id);
    const created = { id, organizationId, name: body.name, slug, description: body.description ?? null, icon: body.icon ?? null, storageName };
    await this.uniqueSlug(slug, () =>
      this.db.transaction(async (client) => {
        if (!(await this.tables.insert(client, created))) throw duplicateTable(slug);
        await this.tables.insertFields(client, id, fields);
        await createRowsTable(client, id, storageName, fields);
        await TABLES_OUTBOX.write(client, [tableEvent('table.created', created)]);
      }),
    );
    return this.get(organizationId, id);
  }

  async update(organizationId: string, tableId: string, body: UpdateTableBody): Promise<ServiceResult<TableDetail>> {
    let slug = '';
    await this.notImporting(organizationId, tableId);
    await this.uniqueSlug(() => slug, () =>
      this.db.transaction(async (client) => {
        const table = await this.tables.find(organizationId, tableId, client, 'update');
        if (!table) throw AppError.notFound('Table');
        const name = body.name ?? table.name;
        slug = body.name === undefined ? table.slug : slugOrIdSlug(name, 't', table.id);
        if (slug !== table.slug && (await this.tables.slugTaken(client, organizationId, slug, table.id))) throw duplicateTable(slug);
        const { removed, added, changed } = await this.planFieldChanges(client, table, body);
        // Files of removed attachment fields leave storage once this change commits.
        await this.fileDeletions.enqueueColumns(client, table, removed.filter((field) => field.fieldType === 'attachment'));
        await this.tables.deleteFields(client, removed.map((field) => field.id));
        for (const field of changed) await this.tables.updateField(client, field);
        await this.tables.insertFields(client, table.id, added);
        await this.changeColumns(client, table, removed, changed, added);
        const next = {
          id: table.id,
          organizationId,
          name,
          slug,
          description: body.description === undefined ? table.description : body.description,
          icon: body.icon === undefined ? table.icon : body.icon,
        };
        await this.tables.touch(client, next);
        await TABLES_OUTBOX.write(client, [tableEvent('table.updated', next)]);
      }),
    );
    this.cache.forget(tableId);
    return this.get(organizationId, tableId);
  }

  async remove(organizationId: string, tableId: string): Promise<ServiceResult<never>> {
    await this.notImporting(organizationId, tableId);
    await this.db.transaction(async (client) => {
      const table = await this.tables.find(organizationId, tableId, client, 'update');
      if (!table) throw AppError.notFound('Table');
      await yieldIndexBuilds(client, table.id);
      await dropRowsTable(client, table.storageName);
      await this.fileDeletions.enqueueTable(client, table);
      await this.tables.delete(client, table.id);
      await TABLES_OUTBOX.write(client, [tableEvent('table.deleted', table)]);
    });
    this.cache.forget(tableId);
    return { message: 'Table deleted' };
  }

  /**
   * Checks a PATCH's `fields` and `remove_fields` against the table as it is, in the contract's terms,
   * and brings stored values in line with changed options (in the caller's transaction).
   */
  private async planFieldChanges(client: Sql, table: UserTable, body: UpdateTableBody) {
    const byId = new Map(table.fields.map((field) => [field.id, field]));
    const removedIds = new Set<string>();
    (body.remove_fields ?? []).forEach((id: unknown, i) => {
      const key = typeof id === 'string' ? id.toLowerCase() : '';
      if (!byId.has(key)) throw AppError.validation(`remove_fields[${i}]`, 'is not the id of a field of this table');
      removedIds.add(key);
    });
    const removed = table.fields.filter((field) => removedIds.has(field.id));
    const kept = table.fields.filter((field) => !removedIds.has(field.id));
    const taken = new Set(kept.map((field) => field.slug));
    const added: Field[] = [];
    const changed: Field[] = [];
    const seen = new Set<string>();
    for (const [i, input] of (body.fields ?? []).entries()) {
      const path = `fields[${i}]`;
      if (input.id === undefined) {
        const field = newField(input, path, taken);
        if (field.isRequired && table.rowCount > 0) {
          throw AppError.validation(`${path}.is_required`, 'a required field cannot be added to a table that has rows');
        }
        added.push(field);
        continue;
      }
      const id = input.id.toLowerCase();
      const current = byId.get(id);
      if (!current || removedIds.has(id)) throw AppError.validation(`${path}.id`, 'is not a field of this table');
      if (seen.has(id)) throw AppError.validation(`${path}.id`, 'appears twice');
      seen.add(id);
      if (input.field_type !== undefined && input.field_type !== current.fieldType) {
        throw AppError.validation(`${path}.field_type`, 'cannot change');
      }
      const options = input.options === undefined ? current.options : validateFieldOptions(current.fieldType, { ...current.options, ...input.options }, `${path}.options`);
      const field: Field = { ...current, name: input.name ?? current.name, isRequired: input.is_required ?? current.isRequired, options };
      if (field.isRequired && !current.isRequired && (await this.hasEmptyValues(client, table, field))) {
        throw AppError.validation(`${path}.is_required`, 'some rows have no value for this field');
      }
      await applyOptionChange(client, table, current, field, path);
      changed.push(field);
    }
    if (kept.length + added.length > MAX_FIELDS_PER_TABLE) {
      throw AppError.validation('fields', `a table holds at most ${MAX_FIELDS_PER_TABLE} fields; this change would leave ${kept.length + added.length}`);
    }
    return { removed, added, changed };
  }

  /** Alters the rows table in place, or rebuilds it when dropped columns have used up too many column numbers. */
  private async changeColumns(client: Sql, table: UserTable, removed: Field[], changed: Field[], added: Field[]): Promise<void> {
    if (removed.length + added.length === 0) return;
    // The lock first: a builder finishing an index of a removed field deletes its pending entry too.
    await yieldIndexBuilds(client, table.id);
    await forgetPendingIndexes(client, removed.map((field) => field.id));
    if (!(await needsRebuild(client, table.storageName, added.length))) {
      return recordPendingIndexes(client, table.id, await alterRowsTable(client, table.storageName, removed, added));
    }
    const gone = new Set(removed.map((field) => field.id));
    const current = new Map(changed.map((field) => [field.id, field]));
    const kept = table.fields.filter((field) => !gone.has(field.id)).map((field) => current.get(field.id) ?? field);
    await rebuildRowsTable(client, table.id, table.storageName, kept, added);
  }

  private async hasEmptyValues(client: Sql, table: UserTable, field: Field): Promise<boolean> {
    const params = new SqlParameters();
    const empty = compileFilter({ kind: 'condition', target: { kind: 'field', field }, operator: 'is_empty', value: true }, params);
    const { rowCount } = await client.query(`SELECT 1 FROM ${qualified(table.storageName)} WHERE ${empty} LIMIT 1`, params.values);
    return Boolean(rowCount);
  }

  /** Two concurrent writers of the same slug: the loser's unique violation becomes the contract's CONFLICT. */
  private uniqueSlug<T>(slug: string | (() => string), work: () => Promise<T>): Promise<T> {
    const message = () => duplicateTable(typeof slug === 'string' ? slug : slug()).message;
    return conflictOnUniqueViolation(work, message, 'user_tables_organization_id_slug_key');
  }
}
