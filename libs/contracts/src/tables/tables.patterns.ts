/** NATS request-reply subjects of the tables service. */
export const TablesPatterns = {
  list: 'tables.list',
  get: 'tables.get',
  create: 'tables.create',
  update: 'tables.update',
  remove: 'tables.remove',
  listRows: 'tables.rows.list',
  getRow: 'tables.rows.get',
  createRow: 'tables.rows.create',
  updateRow: 'tables.rows.update',
  removeRow: 'tables.rows.remove',
  createRows: 'tables.rows.batch.create',
  updateRows: 'tables.rows.batch.update',
  removeRows: 'tables.rows.batch.remove',
  createUpload: 'tables.uploads.create',
  createImport: 'tables.imports.create',
  getImport: 'tables.imports.get',
  listImports: 'tables.imports.list',
  /** For other contexts: which of these ids name tables of the organization. */
  existingIds: 'tables.existing-ids',
} as const;
