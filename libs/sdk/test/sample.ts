// Compiled by package.spec.ts in an empty project that installed the packed SDK, under `tsc --strict`:
// everything below must type-check without a cast. It imports the package by its published name, as a
// user's project does, so the in-repo relative-import rule does not apply here.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { allRows, ApiError, createApiClient, rowFilter, type Schema, typedTable, verifyWebhook, type WebhookPayload } from '@org-data-platform/sdk';

export async function sample(apiKey: string): Promise<string[]> {
  const api = createApiClient({ baseUrl: 'http://localhost:3000/v1', apiKey });

  const created = await api.POST('/tables', {
    body: { name: 'Leads', description: 'From the web form', icon: 'inbox', fields: [{ name: 'Email', field_type: 'email', is_required: true }] },
  });
  if (created.error) throw new ApiError(created.response.status, created.error);
  const table: Schema<'TableDetail'> = created.data.data;
  const slug: string = table.fields[0].slug;

  const row = await api.POST('/tables/{table_id}/rows', { params: { path: { table_id: table.id } }, body: { data: { [slug]: 'ada@example.com' } } });
  const code: string | undefined = row.error?.error.code;
  const rowId: string | undefined = row.data?.data.id;

  const list = await api.GET('/tables/{table_id}/rows', { params: { path: { table_id: table.id }, query: { limit: 10, sort: 'created_at', order: 'desc' } } });
  const total: number | undefined = list.data?.pagination.total;

  const emails: string[] = [];
  for await (const each of allRows(api, table.id, { filter: JSON.stringify({ [slug]: { contains: '@example.com' } }) })) {
    const value = each.data[slug];
    if (typeof value === 'string') emails.push(value);
  }

  const hook = await api.POST('/webhooks', { body: { name: 'Sync', url: 'https://example.com/hooks', events: ['row.created'] } });
  const secret: string | undefined = hook.data?.data.secret;

  const availability = await api.PUT('/calendar/availability', { body: { schedules: [{ day_of_week: 1, start_time: '09:00:00', end_time: '17:00:00' }] } });
  const slots: number | undefined = availability.data?.schedules.length;

  await api.DELETE('/tables/{table_id}', { params: { path: { table_id: table.id } } });
  return [code ?? '', rowId ?? '', String(total), secret ?? '', String(slots), ...emails];
}

export function receive(secret: string, rawBody: string, headers: Record<string, string>): string {
  const payload: WebhookPayload = verifyWebhook(secret, rawBody, headers);
  if (payload.event === 'row.created') return payload.data.row_id;
  if (payload.event === 'row.updated') return payload.data.changed_fields.join(',');
  return payload.event;
}

type Deal = { name: string; amount: number; stage: string; tags?: string[] | null };

/** Calls that return their data or throw, and typed rows: wrong slugs and operands must not compile. */
export async function typed(apiKey: string): Promise<number> {
  const api = createApiClient({ baseUrl: 'http://localhost:3000/v1', apiKey, throwOnError: true });
  const table: Schema<'TableDetail'> = (await api.GET('/tables/{table_id}', { params: { path: { table_id: 't' } } })).data;
  const tables: Schema<'TableListItem'>[] = (await api.GET('/tables')).data;

  const deals = typedTable<Deal>(createApiClient({ baseUrl: 'http://localhost:3000/v1', apiKey }), table.id);
  const created = await deals.create({ name: 'Big', amount: 500, stage: 'won' });
  const amount: number = created.data.amount;
  // @ts-expect-error a Deal has no such field
  await deals.create({ name: 'x', amount: 1, stage: 'open', nope: true });
  // @ts-expect-error amount is a number
  await deals.update(created.id, { amount: 'lots' });
  const page = await deals.list({ amount: { gte: 100 }, or: [{ stage: 'won' }, { tags: { contains: 'vip' } }] });

  rowFilter<Deal>({ name: { starts_with: 'B' }, created_at: { gte: '2026-11-01T00:00:00Z' } });
  // @ts-expect-error contains is not an operator of a number
  rowFilter<Deal>({ amount: { contains: 'x' } });
  // @ts-expect-error the operand of gte on a number is a number
  rowFilter<Deal>({ amount: { gte: '100' } });
  // @ts-expect-error no field of that slug
  rowFilter<Deal>({ owner: 'ada' });
  type Contract = { title: string; files?: Schema<'AttachmentFile'>[] | null };
  const contracts = typedTable<Contract>(createApiClient({ baseUrl: 'http://localhost:3000/v1', apiKey }), table.id);
  const signed = await contracts.create({ title: 'Lease', files: [{ upload_id: 'u' }, { url: 'https://example.com/terms.pdf', filename: 'terms.pdf' }] });
  await contracts.update(signed.id, { files: [{ id: signed.data.files?.[0]?.id ?? '' }] });
  // @ts-expect-error a title is text, not a file
  await contracts.update(signed.id, { title: [{ upload_id: 'u' }] });
  const rows = createApiClient({ baseUrl: 'http://localhost:3000/v1', apiKey, throwOnError: true });
  const attached = await rows.POST('/tables/{table_id}/rows', {
    params: { path: { table_id: table.id } },
    body: { data: { documents: [{ upload_id: 'u' }, { id: 'kept-file' }, { url: 'https://example.com/terms.pdf', filename: 'terms.pdf' }] } },
  });
  const documents = attached.data.data.documents;
  const names = Array.isArray(documents) ? documents.map((entry) => (typeof entry === 'string' ? entry : entry.filename)) : [];
  return amount + page.rows.length + tables.length + names.length;
}
