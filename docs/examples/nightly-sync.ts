import { ApiError, type ApiClient } from '@org-data-platform/sdk';

/**
 * Sends every record of the other system, 100 rows a request. The table's `email` field is `is_unique`:
 * a record whose email a row holds updates that row, the others are created, and a record that changed
 * nothing is left alone (no event). Running it twice is harmless, so it needs no Idempotency-Key.
 */
export async function nightlySync(api: ApiClient, tableId: string, records: Array<Record<string, string | number | boolean | null>>) {
  const totals = { created: 0, updated: 0, unchanged: 0 };
  for (let start = 0; start < records.length; start += 100) {
    const rows = records.slice(start, start + 100).map((data) => ({ data }));
    const { data, error, response } = await api.POST('/tables/{table_id}/rows/batch', {
      params: { path: { table_id: tableId } },
      body: { upsert_on: 'email', rows },
    });
    if (error) throw new ApiError(response.status, error);
    if ('actions' in data) for (const action of data.actions) totals[action] += 1;
  }
  return totals;
}
