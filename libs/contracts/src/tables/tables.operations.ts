import { operation } from '../operation';
import { PageQuery } from '../pagination';
import { CreateTableBody, UpdateTableBody } from './table.dto';
import { TableDetail, TableListItem } from './table.views';

const tables = { tag: 'tables' } as const;

/** Tables and their fields (the tables service, queue group `tables`). */
export const TablesOperations = {
  list: operation({
    ...tables,
    operationId: 'listTables',
    summary: 'List tables',
    method: 'GET',
    path: 'tables',
    scope: 'tables:read',
    subject: 'tables.list',
    query: PageQuery,
    answers: TableListItem,
  }),
  get: operation({
    ...tables,
    operationId: 'getTable',
    summary: 'A table with its fields',
    method: 'GET',
    path: 'tables/:table_id',
    scope: 'tables:read',
    subject: 'tables.get',
    answers: TableDetail,
  }),
  create: operation({
    ...tables,
    operationId: 'createTable',
    summary: 'Create a table',
    method: 'POST',
    path: 'tables',
    scope: 'tables:write',
    subject: 'tables.create',
    status: 201,
    body: CreateTableBody,
    answers: TableDetail,
  }),
  update: operation({
    ...tables,
    operationId: 'updateTable',
    summary: 'Rename, describe, and add, change or remove fields',
    method: 'PATCH',
    path: 'tables/:table_id',
    scope: 'tables:write',
    subject: 'tables.update',
    body: UpdateTableBody,
    answers: TableDetail,
  }),
  remove: operation({
    ...tables,
    operationId: 'deleteTable',
    summary: 'Delete a table and its rows',
    method: 'DELETE',
    path: 'tables/:table_id',
    scope: 'tables:write',
    subject: 'tables.remove',
  }),
};
