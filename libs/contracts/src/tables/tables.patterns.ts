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
} as const;
