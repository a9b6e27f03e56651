import { operation } from '../operation';
import { PageQuery } from '../pagination';
import { CreateImportBody, ImportView } from './import.dto';

const imports = { tag: 'imports' } as const;

/** Imports of CSV and NDJSON files, queued here and run by tables-jobs (the tables service, queue group `tables`). */
export const ImportsOperations = {
  create: operation({
    ...imports,
    operationId: 'createImport',
    summary: 'Import a CSV or NDJSON file into the table, in the background',
    description:
      'The file is an upload of this table made with purpose "import". Answers 202 with the queued import; read it again ' +
      'to follow `rows_done` and see how it ended. At most one import of a table is queued or running at a time.',
    method: 'POST',
    path: 'tables/:table_id/imports',
    scope: 'tables:write',
    subject: 'tables.imports.create',
    status: 202,
    body: CreateImportBody,
    answers: ImportView,
  }),
  list: operation({
    ...imports,
    operationId: 'listImports',
    summary: "The table's imports, newest first",
    method: 'GET',
    path: 'tables/:table_id/imports',
    scope: 'tables:read',
    subject: 'tables.imports.list',
    query: PageQuery,
    answers: ImportView,
  }),
  get: operation({
    ...imports,
    operationId: 'getImport',
    summary: 'One import, with its progress and problems',
    method: 'GET',
    path: 'tables/:table_id/imports/:import_id',
    scope: 'tables:read',
    subject: 'tables.imports.get',
    answers: ImportView,
  }),
};
