import 'reflect-metadata';
import { readOrgEvents } from '@platform/testing';
import { createTable, newOrg, OrgClient } from './tables-fixtures';

describe('upsert batches (upsert_on)', () => {
  let org: OrgClient;
  let tableId: string;
  const batch = () => `/tables/${tableId}/rows/batch`;
  const countRows = async () => (await org.api.get(`/tables/${tableId}`)).body.data.row_count as number;

  beforeAll(async () => {
    org = await newOrg();
    tableId = (
      await createTable(org.api, [
        { name: 'Email', field_type: 'email', is_required: true, options: { is_unique: true } },
        { name: 'Code', field_type: 'number', options: { is_unique: true } },
        { name: 'Name', field_type: 'text', is_required: true },
        { name: 'Plan', field_type: 'text' },
        { name: 'Note', field_type: 'text' },
      ])
    ).id;
  });

  it('creates new keys, updates stored ones with the given fields only, leaves equal ones alone, with one event per change', async () => {
    const first = await org.api.post(batch(), {
      upsert_on: 'email',
      rows: [
        { data: { email: 'ada@example.com', name: 'Ada', plan: 'free', note: 'kept' } },
        { data: { email: 'bob@example.com', name: 'Bob', plan: 'free' } },
      ],
    });
    expect(first.status).toBe(200);
    expect(first.body.actions).toEqual(['created', 'created']);
    const [ada, bob] = first.body.data;
    expect(await countRows()).toBe(2);

    // Ada's address in another case is the same stored value; Bob's row is sent as it is.
    const second = await org.api.post(batch(), {
      upsert_on: 'email',
      rows: [
        { data: { email: 'cy@example.com', name: 'Cy' } },
        { data: { email: 'Ada@Example.COM', plan: 'pro' } },
        { data: { email: 'bob@example.com', name: 'Bob' } },
      ],
    });
    expect(second.status).toBe(200);
    expect(second.body.actions).toEqual(['created', 'updated', 'unchanged']);
    const [cy, adaAfter, bobAfter] = second.body.data;
    expect(adaAfter).toMatchObject({ id: ada.id, created_at: ada.created_at, data: { email: 'ada@example.com', name: 'Ada', plan: 'pro', note: 'kept', code: null } });
    expect(adaAfter.updated_at > ada.updated_at).toBe(true);
    expect(bobAfter).toEqual(bob);
    expect(cy.data).toEqual({ email: 'cy@example.com', code: null, name: 'Cy', plan: null, note: null });
    expect(await countRows()).toBe(3);

    const events = (await readOrgEvents(org.orgId, { count: 5 })).filter((e) => e.event.event.startsWith('row.'));
    expect(events.map((e) => [e.event.event, e.event.data.row_id])).toEqual([
      ['row.created', ada.id],
      ['row.created', bob.id],
      ['row.created', cy.id],
      ['row.updated', ada.id],
    ]);
    expect(events[3].event.data).toMatchObject({ changed_fields: ['plan'], previous_row_data: { plan: 'free' }, row_data: { plan: 'pro' } });
  });

  it('compares numbers as stored (2 and 2.0 are one key) and answers rows in the order sent', async () => {
    const created = await org.api.post(batch(), { upsert_on: 'code', rows: [{ data: { code: 2, email: 'two@example.com', name: 'Two' } }] });
    expect(created.body.actions).toEqual(['created']);
    const again = await org.api.post(batch(), { upsert_on: 'code', rows: [{ data: { code: 3, email: 'three@example.com', name: 'Three' } }, { data: { code: 2.0, name: 'Deux' } }] });
    expect(again.body.actions).toEqual(['created', 'updated']);
    expect(again.body.data[1]).toMatchObject({ id: created.body.data[0].id, data: { code: 2, name: 'Deux', email: 'two@example.com' } });
  });

  it('refuses a bad upsert_on, a row without its value and a repeated value, writing nothing', async () => {
    const before = await countRows();
    const cases: Array<[unknown, string]> = [
      [{ upsert_on: 'nope', rows: [{ data: { email: 'x@example.com', name: 'X' } }] }, 'upsert_on'],
      [{ upsert_on: 'name', rows: [{ data: { email: 'x@example.com', name: 'X' } }] }, 'upsert_on'],
      [{ upsert_on: 'email', rows: [{ data: { email: 'x@example.com', name: 'X' } }, { data: { name: 'Y' } }] }, 'rows[1].data.email'],
      [{ upsert_on: 'email', rows: [{ data: { email: 'x@example.com', name: 'X' } }, { data: { email: null, name: 'Y' } }] }, 'rows[1].data.email'],
      [{ upsert_on: 'email', rows: [{ data: { email: 'x@example.com', name: 'X' } }, { data: { email: 'X@example.com', name: 'Y' } }] }, 'rows[1].data.email'],
      // A new key is a create: its required fields must be there.
      [{ upsert_on: 'email', rows: [{ data: { email: 'x@example.com', name: 'X' } }, { data: { email: 'y@example.com' } }] }, 'rows[1].data.name'],
      [{ upsert_on: 7, rows: [{ data: { email: 'x@example.com', name: 'X' } }] }, 'upsert_on'],
    ];
    for (const [body, field] of cases) {
      const refused = await org.api.post(batch(), body);
      expect([refused.status, refused.body.error?.code, refused.body.error?.details?.field]).toEqual([400, 'VALIDATION_ERROR', field]);
    }
    // Another unique field's value held by another row: CONFLICT naming the item, and nothing of the batch written.
    const clash = await org.api.post(batch(), { upsert_on: 'email', rows: [{ data: { email: 'x@example.com', name: 'X' } }, { data: { email: 'ada@example.com', code: 2 } }] });
    expect([clash.status, clash.body.error?.code, clash.body.error?.details?.field]).toEqual([400, 'CONFLICT', 'rows[1].data.code']);
    expect(await countRows()).toBe(before);
    expect((await org.api.get(`/tables/${tableId}/rows?filter=${encodeURIComponent(JSON.stringify({ email: 'x@example.com' }))}`)).body.data).toEqual([]);
  });

  it('lets concurrent upserts of the same new keys create each row once', async () => {
    const rows = Array.from({ length: 20 }, (_, i) => ({ data: { email: `race${i}@example.com`, name: 'Race' } }));
    const answers = await Promise.all(Array.from({ length: 4 }, (_, k) => org.api.post(batch(), { upsert_on: 'email', rows: rows.map((row) => ({ data: { ...row.data, note: `n${k}` } })) })));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    const created = answers.flatMap((answer) => answer.body.actions).filter((action: string) => action === 'created');
    expect(created).toHaveLength(20);
    const listed = await org.api.get(`/tables/${tableId}/rows?limit=100&filter=${encodeURIComponent(JSON.stringify({ name: 'Race' }))}`);
    expect(listed.body.pagination.total).toBe(20);
  });
});
