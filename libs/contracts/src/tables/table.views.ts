import type { FieldType } from './field-types';

export interface FieldView {
  id: string;
  name: string;
  slug: string;
  field_type: FieldType;
  is_required: boolean;
  options: Record<string, unknown>;
}

export interface TableListItem {
  id: string;
  name: string;
  slug: string;
  description: string | null;
  icon: string | null;
  row_count: number;
  created_at: string;
  updated_at: string;
}

export interface TableDetail extends TableListItem {
  fields: FieldView[];
}

export interface RowView {
  id: string;
  data: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

/** What each tables message carries in `params`. */
export interface TableRef {
  tableId: string;
}
export interface RowRef extends TableRef {
  rowId: string;
}
