import type { FieldView, TableDetail } from '@contracts';
import type { Field } from '../fields/field';

/** A user table's metadata; `version` changes with every update, so a cached copy can be checked cheaply. */
export interface UserTable {
  id: string;
  organizationId: string;
  name: string;
  slug: string;
  description: string | null;
  icon: string | null;
  storageName: string;
  version: number;
  rowCount: number;
  createdAt: Date;
  updatedAt: Date;
  fields: Field[];
}

export function fieldView(field: Field): FieldView {
  return {
    id: field.id,
    name: field.name,
    slug: field.slug,
    field_type: field.fieldType,
    is_required: field.isRequired,
    options: { ...field.options },
  };
}

export function tableListItem(table: UserTable) {
  return {
    id: table.id,
    name: table.name,
    slug: table.slug,
    description: table.description,
    icon: table.icon,
    row_count: table.rowCount,
    created_at: table.createdAt.toISOString(),
    updated_at: table.updatedAt.toISOString(),
  };
}

export function tableDetail(table: UserTable): TableDetail {
  return { ...tableListItem(table), fields: table.fields.map(fieldView) };
}
