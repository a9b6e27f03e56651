import { Injectable } from '@nestjs/common';
import type { FieldType } from '@contracts';
import { Database, Sql } from '@platform/persistence';
import type { Field, FieldOptions } from '../fields/field';
import { FIELDS_TABLE, ROW_COUNTS_TABLE, USER_TABLES_TABLE } from '../tables-schema';
import type { UserTable } from './user-table';

/** Slots of the sharded row counter; enough that concurrent creates rarely wait on the same one. */
export const ROW_COUNT_SLOTS = 16;

interface TableRecord {
  id: string;
  organization_id: string;
  name: string;
  slug: string;
  description: string | null;
  icon: string | null;
  storage_name: string;
  version: number;
  row_count: string;
  created_at: Date;
  updated_at: Date;
  fields?: FieldRecord[];
}

interface FieldRecord {
  id: string;
  name: string;
  slug: string;
  field_type: FieldType;
  is_required: boolean;
  options: FieldOptions;
  column_name: string;
}

const TABLE_COLUMNS = `t.id, t.organization_id, t.name, t.slug, t.description, t.icon, t.storage_name, t.version, t.created_at, t.updated_at,
  (SELECT COALESCE(sum(n), 0) FROM ${ROW_COUNTS_TABLE} c WHERE c.table_id = t.id) AS row_count`;
const FIELDS_JSON = `(SELECT COALESCE(json_agg(json_build_object('id', f.id, 'name', f.name, 'slug', f.slug, 'field_type', f.field_type,
  'is_required', f.is_required, 'options', f.options, 'column_name', f.column_name) ORDER BY f.position), '[]')
  FROM ${FIELDS_TABLE} f WHERE f.table_id = t.id) AS fields`;

function toField(record: FieldRecord): Field {
  return {
    id: record.id,
    name: record.name,
    slug: record.slug,
    fieldType: record.field_type,
    isRequired: record.is_required,
    options: record.options,
    column: record.column_name,
  };
}

function toTable(record: TableRecord): UserTable {
  return {
    id: record.id,
    organizationId: record.organization_id,
    name: record.name,
    slug: record.slug,
    description: record.description,
    icon: record.icon,
    storageName: record.storage_name,
    version: record.version,
    rowCount: Number(record.row_count),
    createdAt: record.created_at,
    updatedAt: record.updated_at,
    fields: (record.fields ?? []).map(toField),
  };
}

/** Metadata of user tables; every query is scoped by organization. */
@Injectable()
export class UserTableRepository {
  constructor(private readonly db: Database) {}

  async page(organizationId: string, limit: number, offset: number): Promise<{ tables: UserTable[]; total: number }> {
    const [{ rows: records }, { rows: [count] }] = await Promise.all([
      this.db.query<TableRecord>(
        `SELECT ${TABLE_COLUMNS} FROM ${USER_TABLES_TABLE} t WHERE t.organization_id = $1 ORDER BY t.created_at, t.id LIMIT $2 OFFSET $3`,
        [organizationId, limit, offset],
      ),
      this.db.query<{ total: string }>(`SELECT count(*) AS total FROM ${USER_TABLES_TABLE} WHERE organization_id = $1`, [organizationId]),
    ]);
    return { tables: records.map(toTable), total: Number(count.total) };
  }

  /** The table with its fields; `lock` takes it FOR UPDATE (changes) or FOR SHARE (row writes) in the caller's transaction. */
  /**
   * The table with its fields. With `lock`, the table's row is locked first and read after, in a statement
   * of its own: a statement that waits for a lock still reads what it read before it waited, so fields
   * read with the lock would be those from before the change that held it (a PATCH would count and name
   * its fields against a table another PATCH has just changed).
   */
  async find(organizationId: string, tableId: string, db: Sql = this.db, lock?: 'update' | 'share'): Promise<UserTable | undefined> {
    if (lock) {
      const { rowCount } = await db.query(`SELECT 1 FROM ${USER_TABLES_TABLE} WHERE id = $1 AND organization_id = $2 FOR ${lock === 'update' ? 'UPDATE' : 'SHARE'}`, [
        tableId,
        organizationId,
      ]);
      if (!rowCount) return undefined;
    }
    const sql = `SELECT ${TABLE_COLUMNS}, ${FIELDS_JSON} FROM ${USER_TABLES_TABLE} t WHERE t.id = $1 AND t.organization_id = $2`;
    const { rows } = await db.query<TableRecord>(sql, [tableId, organizationId]);
    return rows[0] ? toTable(rows[0]) : undefined;
  }

  /** Those of the ids that name tables of the organization (lowercase, as Postgres writes uuids). */
  async existingIds(organizationId: string, tableIds: string[]): Promise<string[]> {
    if (tableIds.length === 0) return [];
    const { rows } = await this.db.query<{ id: string }>(`SELECT id FROM ${USER_TABLES_TABLE} WHERE organization_id = $1 AND id = ANY($2::uuid[])`, [
      organizationId,
      tableIds,
    ]);
    return rows.map((row) => row.id);
  }

  async slugTaken(db: Sql, organizationId: string, slug: string, exceptId?: string): Promise<boolean> {
    const { rowCount } = await db.query(
      `SELECT 1 FROM ${USER_TABLES_TABLE} WHERE organization_id = $1 AND slug = $2 AND id IS DISTINCT FROM $3`,
      [organizationId, slug, exceptId ?? null],
    );
    return Boolean(rowCount);
  }

  /** Answers false when the organization already has a table with this slug. */
  async insert(db: Sql, table: Omit<UserTable, 'version' | 'rowCount' | 'createdAt' | 'updatedAt' | 'fields'>): Promise<boolean> {
    const { rowCount } = await db.query(
      `INSERT INTO ${USER_TABLES_TABLE} (id, organization_id, name, slug, description, icon, storage_name)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (organization_id, slug) DO NOTHING`,
      [table.id, table.organizationId, table.name, table.slug, table.description, table.icon, table.storageName],
    );
    if (!rowCount) return false;
    await db.query(
      `INSERT INTO ${ROW_COUNTS_TABLE} (table_id, slot) SELECT $1, generate_series(0, $2 - 1)`,
      [table.id, ROW_COUNT_SLOTS],
    );
    return true;
  }

  /** Appends fields after the table's existing ones, in the given order. */
  async insertFields(db: Sql, tableId: string, fields: readonly Field[]): Promise<void> {
    for (const field of fields) {
      await db.query(
        `INSERT INTO ${FIELDS_TABLE} (id, table_id, name, slug, field_type, is_required, options, column_name, position)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, (SELECT COALESCE(max(position) + 1, 0) FROM ${FIELDS_TABLE} WHERE table_id = $2))`,
        [field.id, tableId, field.name, field.slug, field.fieldType, field.isRequired, JSON.stringify(field.options), field.column],
      );
    }
  }

  async updateField(db: Sql, field: Field): Promise<void> {
    await db.query(`UPDATE ${FIELDS_TABLE} SET name = $2, is_required = $3, options = $4 WHERE id = $1`, [
      field.id,
      field.name,
      field.isRequired,
      JSON.stringify(field.options),
    ]);
  }

  async deleteFields(db: Sql, fieldIds: string[]): Promise<void> {
    if (fieldIds.length) await db.query(`DELETE FROM ${FIELDS_TABLE} WHERE id = ANY($1::uuid[])`, [fieldIds]);
  }

  async touch(db: Sql, table: Pick<UserTable, 'id' | 'name' | 'slug' | 'description' | 'icon'>): Promise<void> {
    await db.query(
      `UPDATE ${USER_TABLES_TABLE} SET name = $2, slug = $3, description = $4, icon = $5, version = version + 1, updated_at = now() WHERE id = $1`,
      [table.id, table.name, table.slug, table.description, table.icon],
    );
  }

  async delete(db: Sql, tableId: string): Promise<void> {
    await db.query(`DELETE FROM ${USER_TABLES_TABLE} WHERE id = $1`, [tableId]);
  }
}
