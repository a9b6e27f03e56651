import { operation } from '../operation';
import { BatchCreateRowsBody, BatchDeleteRowsBody, BatchUpdateRowsBody, ROW_ACTIONS, RowBody, RowListQuery } from './row.dto';
import { RowView } from './table.views';

const rows = { tag: 'rows' } as const;

/**
 * Rows of a table (the tables service, queue group `tables`). The batch paths are static segments, which
 * the router matches before `:row_id`.
 */
export const RowsOperations = {
  list: operation({
    ...rows,
    operationId: 'listRows',
    summary: 'List rows, filtered and sorted',
    method: 'GET',
    path: 'tables/:table_id/rows',
    scope: 'tables:read',
    subject: 'tables.rows.list',
    query: RowListQuery,
    answers: RowView,
  }),
  createBatch: operation({
    ...rows,
    operationId: 'createRows',
    summary: 'Create up to 100 rows, all or nothing; with upsert_on, create or update each by a unique field',
    description: 'Answers 201 with the created rows; with `upsert_on`, 200 with the rows and what was done to each (`actions`, in the same order).',
    method: 'POST',
    path: 'tables/:table_id/rows/batch',
    scope: 'tables:write',
    subject: 'tables.rows.batch.create',
    status: 201,
    inputStatus: {
      when: (input) => input.upsert_on !== undefined,
      status: 200,
      description: 'upsert_on was given',
      alongside: { actions: { type: 'array', items: { type: 'string', enum: [...ROW_ACTIONS] } } },
    },
    body: BatchCreateRowsBody,
    answers: [RowView],
  }),
  updateBatch: operation({
    ...rows,
    operationId: 'updateRows',
    summary: 'Merge values into up to 100 rows, all or nothing',
    method: 'PATCH',
    path: 'tables/:table_id/rows/batch',
    scope: 'tables:write',
    subject: 'tables.rows.batch.update',
    body: BatchUpdateRowsBody,
    answers: [RowView],
  }),
  removeBatch: operation({
    ...rows,
    operationId: 'deleteRows',
    summary: 'Delete up to 100 rows, all or nothing',
    method: 'POST',
    path: 'tables/:table_id/rows/batch-delete',
    scope: 'tables:write',
    subject: 'tables.rows.batch.remove',
    status: 200,
    body: BatchDeleteRowsBody,
    answers: 'message',
  }),
  get: operation({
    ...rows,
    operationId: 'getRow',
    summary: 'One row',
    method: 'GET',
    path: 'tables/:table_id/rows/:row_id',
    scope: 'tables:read',
    subject: 'tables.rows.get',
    answers: RowView,
  }),
  create: operation({
    ...rows,
    operationId: 'createRow',
    summary: 'Create a row',
    method: 'POST',
    path: 'tables/:table_id/rows',
    scope: 'tables:write',
    subject: 'tables.rows.create',
    status: 201,
    // The row is named after the call id, so a second send finds it committed instead of writing it again.
    resendable: true,
    body: RowBody,
    answers: RowView,
  }),
  update: operation({
    ...rows,
    operationId: 'updateRow',
    summary: 'Merge values into a row',
    method: 'PATCH',
    path: 'tables/:table_id/rows/:row_id',
    scope: 'tables:write',
    subject: 'tables.rows.update',
    body: RowBody,
    answers: RowView,
  }),
  remove: operation({
    ...rows,
    operationId: 'deleteRow',
    summary: 'Delete a row',
    method: 'DELETE',
    path: 'tables/:table_id/rows/:row_id',
    scope: 'tables:write',
    subject: 'tables.rows.remove',
  }),
};
