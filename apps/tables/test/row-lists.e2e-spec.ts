import 'reflect-metadata';
import { createTable, filterQuery, newOrg, OrgClient } from './tables-fixtures';

const FIELDS = [
  { name: 'Name', field_type: 'text' },
  { name: 'Age', field_type: 'number' },
  { name: 'Price', field_type: 'currency' },
  { name: 'Born', field_type: 'date' },
  { name: 'Seen', field_type: 'datetime' },
  { name: 'Ok', field_type: 'checkbox' },
  { name: 'Status', field_type: 'select', options: { values: ['open', 'closed', 'held'] } },
  { name: 'Tags', field_type: 'multi_select', options: { values: ['a', 'b', 'c'] } },
  { name: 'Mail', field_type: 'email' },
  { name: 'Files', field_type: 'attachment' },
];

/** Rows chosen so that text order differs from number order, and numbers from their string order. */
const ROWS = [
  { name: 'alice', age: 9, price: 100, born: '1990-12-01', seen: '2024-01-01T10:00:00Z', ok: true, status: 'open', tags: ['a'], mail: 'alice@example.com', files: [{ url: 'https://x.example/1', filename: '1' }] },
  { name: 'Bob', age: 10, price: 20.5, born: '1985-01-31', seen: '2024-01-01T09:00:00-02:00', ok: false, status: 'closed', tags: ['a', 'b'], mail: 'bob@example.org' },
  { name: 'carol 50%_off', age: 100, price: 3, born: '2001-06-15', seen: '2023-12-31T23:59:59.999Z', ok: true, status: 'held', tags: [], mail: 'carol@example.com' },
  { name: 'dave', age: -1.5, price: 20.5, born: '1990-12-01', seen: null, ok: null, status: null, tags: null, mail: null },
  { name: '', age: null, price: null, born: null, seen: null, ok: null, status: 'open', tags: ['c'], mail: null },
];

describe('row lists: filter, sort, pagination', () => {
  let org: OrgClient;
  let tableId: string;
  const idOf: Record<string, string> = {};

  beforeAll(async () => {
    org = await newOrg();
    tableId = (await createTable(org.api, FIELDS)).id;
    for (const data of ROWS) {
      const res = await org.api.post(`/tables/${tableId}/rows`, { data });
      if (res.status !== 201) throw new Error(JSON.stringify(res.body));
      idOf[data.name] = res.body.data.id;
    }
  });

  async function names(query: string): Promise<string[]> {
    const res = await org.api.get(`/tables/${tableId}/rows${query}`);
    if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
    expect(res.body.pagination.total).toBe(res.body.data.length);
    return res.body.data.map((row: any) => row.data.name);
  }

  const byName = (list: string[]) => [...list].sort();

  it.each([
    [{ status: 'open' }, ['', 'alice']],
    [{ status: { eq: 'closed' } }, ['Bob']],
    [{ status: { ne: 'open' } }, ['Bob', 'carol 50%_off', 'dave']],
    [{ status: null }, ['dave']],
    [{ age: { gt: 9 } }, ['Bob', 'carol 50%_off']],
    [{ age: { gte: 9 } }, ['Bob', 'alice', 'carol 50%_off']],
    [{ age: { lt: 10 } }, ['alice', 'dave']],
    [{ age: { lte: 10, gt: 0 } }, ['Bob', 'alice']],
    [{ price: 20.5 }, ['Bob', 'dave']],
    [{ price: { in: [3, 100] } }, ['alice', 'carol 50%_off']],
    [{ price: { nin: [20.5] } }, ['', 'alice', 'carol 50%_off']],
    [{ born: { gte: '1990-12-01' } }, ['alice', 'carol 50%_off', 'dave']],
    [{ born: { lt: '1990-01-01' } }, ['Bob']],
    [{ seen: { gt: '2024-01-01T10:30:00Z' } }, ['Bob']],
    [{ seen: { lte: '2024-01-01T11:00:00+01:00' } }, ['alice', 'carol 50%_off']],
    [{ ok: true }, ['alice', 'carol 50%_off']],
    [{ ok: { ne: true } }, ['', 'Bob', 'dave']],
    [{ name: 'Bob' }, ['Bob']],
    [{ name: { contains: 'A' } }, ['alice', 'carol 50%_off', 'dave']],
    [{ name: { contains: '50%_' } }, ['carol 50%_off']],
    [{ name: { contains: '%' } }, ['carol 50%_off']],
    [{ name: { starts_with: 'b' } }, ['Bob']],
    [{ name: { gt: 'a' } }, ['alice', 'carol 50%_off', 'dave']],
    [{ name: { in: ['alice', 'dave'] } }, ['alice', 'dave']],
    [{ name: { is_empty: true } }, ['']],
    [{ name: { is_empty: false } }, ['Bob', 'alice', 'carol 50%_off', 'dave']],
    [{ mail: { contains: 'EXAMPLE.COM' } }, ['alice', 'carol 50%_off']],
    [{ mail: { is_empty: true } }, ['', 'dave']],
    [{ tags: { contains: 'a' } }, ['Bob', 'alice']],
    [{ tags: ['b', 'a'] }, ['Bob']],
    [{ tags: { in: ['b', 'c'] } }, ['', 'Bob']],
    [{ tags: { nin: ['a'] } }, ['', 'carol 50%_off', 'dave']],
    [{ tags: { is_empty: true } }, ['carol 50%_off', 'dave']],
    [{ files: { is_empty: false } }, ['alice']],
    [{ status: 'open', ok: true }, ['alice']],
    [{ or: [{ status: 'closed' }, { age: { gt: 50 } }] }, ['Bob', 'carol 50%_off']],
    [{ and: [{ or: [{ status: 'open' }, { status: 'held' }] }, { or: [{ ok: true }, { name: { is_empty: true } }] }] }, ['', 'alice', 'carol 50%_off']],
    [{ or: [{ and: [{ age: { gt: 0 } }, { age: { lt: 50 } }] }, { name: 'dave' }], mail: { is_empty: false } }, ['Bob', 'alice']],
    [{ created_at: { gte: '2000-01-01T00:00:00Z' } }, ['', 'Bob', 'alice', 'carol 50%_off', 'dave']],
    [{ updated_at: { lt: '2000-01-01T00:00:00Z' } }, []],
    [{}, ['', 'Bob', 'alice', 'carol 50%_off', 'dave']],
  ])('filter %j', async (filter, expected) => {
    expect(byName(await names(filterQuery(filter)))).toEqual(byName(expected));
  });

  it.each([
    ['not json', 'filter'],
    ['[]', 'filter'],
    ['{"nope":1}', 'filter.nope'],
    ['{"age":{"between":[1,2]}}', 'filter.age.between'],
    ['{"age":"9"}', 'filter.age'],
    ['{"born":{"gt":"1990-02-30"}}', 'filter.born.gt'],
    ['{"ok":{"gt":true}}', 'filter.ok.gt'],
    ['{"files":{"contains":"x"}}', 'filter.files.contains'],
    ['{"name":{"is_empty":1}}', 'filter.name.is_empty'],
    ['{"or":[{"and":[{"x":1}]}]}', 'filter.or[0].and[0].x'],
  ])('refuses filter %s naming %s', async (filter, field) => {
    const res = await org.api.get(`/tables/${tableId}/rows?filter=${encodeURIComponent(filter)}`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.field).toBe(field);
  });

  it('refuses filters nested too deep or with too many conditions, quickly', async () => {
    let deep: unknown = { age: 1 };
    for (let i = 0; i < 200; i += 1) deep = { or: [deep] };
    const started = Date.now();
    const res = await org.api.get(`/tables/${tableId}/rows${filterQuery(deep)}`);
    expect(res.status).toBe(400);
    expect(res.body.error.details.field).toMatch(/^filter/);
    const many = { or: Array.from({ length: 300 }, (_, i) => ({ age: i })) };
    const tooMany = await org.api.get(`/tables/${tableId}/rows${filterQuery(many)}`);
    expect(tooMany.status).toBe(400);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it.each([
    ['age', 'asc', ['dave', 'alice', 'Bob', 'carol 50%_off', '']],
    ['age', 'desc', ['', 'carol 50%_off', 'Bob', 'alice', 'dave']],
    ['name', 'asc', ['', 'Bob', 'alice', 'carol 50%_off', 'dave']],
    ['born', 'asc', null],
    ['seen', 'asc', ['carol 50%_off', 'alice', 'Bob', null, null]],
    ['ok', 'asc', null],
    ['created_at', 'asc', ['alice', 'Bob', 'carol 50%_off', 'dave', '']],
    ['created_at', 'desc', ['', 'dave', 'carol 50%_off', 'Bob', 'alice']],
  ])('sorts by %s %s, typed', async (sort, order, expected) => {
    const got = await names(`?sort=${sort}&order=${order}`);
    if (expected) {
      const fixed = expected.filter((name) => name !== null);
      expect(got.slice(0, fixed.length)).toEqual(fixed);
    }
    expect(got).toHaveLength(ROWS.length);
  });

  it('breaks ties by id, in the sort direction, stable across pages', async () => {
    const res = await org.api.get(`/tables/${tableId}/rows?sort=price&order=asc`);
    const prices = res.body.data.map((row: any) => row.data.price);
    expect(prices).toEqual([3, 20.5, 20.5, 100, null]);
    const tied = res.body.data.filter((row: any) => row.data.price === 20.5).map((row: any) => row.id);
    expect(tied).toEqual([idOf.Bob, idOf.dave].sort());
    const born = await org.api.get(`/tables/${tableId}/rows?sort=born&order=desc`);
    const dates = born.body.data.map((row: any) => row.data.born);
    expect(dates).toEqual([null, '2001-06-15', '1990-12-01', '1990-12-01', '1985-01-31']);
    const pages: string[] = [];
    for (let page = 1; page <= 3; page += 1) {
      const slice = await org.api.get(`/tables/${tableId}/rows?sort=born&order=desc&limit=2&page=${page}`);
      expect(slice.body.pagination).toEqual({ page, limit: 2, total: 5, next_cursor: page < 3 ? expect.any(String) : null });
      pages.push(...slice.body.data.map((row: any) => row.id));
    }
    expect(pages).toEqual(born.body.data.map((row: any) => row.id));
  });

  describe('by cursor', () => {
    const SORTS = ['created_at', 'updated_at', ...FIELDS.map((field) => field.name.toLowerCase())];

    async function walk(query: string): Promise<{ ids: string[]; pages: any[] }> {
      const ids: string[] = [];
      const pages: any[] = [];
      let cursor: string | null = null;
      do {
        const res: any = await org.api.get(`/tables/${tableId}/rows?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        expect(res.status).toBe(200);
        pages.push(res.body.pagination);
        ids.push(...res.body.data.map((row: any) => row.id));
        cursor = res.body.pagination.next_cursor;
      } while (cursor && pages.length < 10);
      return { ids, pages };
    }

    it.each(SORTS.flatMap((sort) => [[sort, 'asc'], [sort, 'desc']]))('walks sort=%s order=%s page by page in the same order as one list', async (sort, order) => {
      const whole = await org.api.get(`/tables/${tableId}/rows?sort=${sort}&order=${order}`);
      expect(whole.body.pagination.next_cursor).toBeNull();
      const { ids, pages } = await walk(`sort=${sort}&order=${order}&limit=2`);
      expect(ids).toEqual(whole.body.data.map((row: any) => row.id));
      expect(pages.map((p) => p.page)).toEqual([1, 2, 3]);
      expect(pages[2].next_cursor).toBeNull();
    });

    it('walks a filtered list and keeps its total', async () => {
      const filter = { status: { is_empty: false } };
      const { ids, pages } = await walk(filterQuery(filter, '&sort=name&order=desc&limit=1').slice(1));
      const whole = await org.api.get(`/tables/${tableId}/rows${filterQuery(filter, '&sort=name&order=desc')}`);
      expect(ids).toEqual(whole.body.data.map((row: any) => row.id));
      expect(pages.every((p) => p.total === 4)).toBe(true);
    });

    it('refuses a cursor with page, with another query, or altered, naming cursor', async () => {
      const first = await org.api.get(`/tables/${tableId}/rows?sort=age&limit=2`);
      const cursor = encodeURIComponent(first.body.pagination.next_cursor);
      // The first character of the signature always carries bits of its first byte (the last may be padding).
      const [signed, signature] = cursor.split('.');
      const altered = `${signed}.${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
      const refused = [
        `sort=age&limit=2&page=2&cursor=${cursor}`,
        `sort=age&limit=3&cursor=${cursor}`,
        `sort=age&order=desc&limit=2&cursor=${cursor}`,
        `sort=name&limit=2&cursor=${cursor}`,
        `${filterQuery({ ok: true }).slice(1)}&sort=age&limit=2&cursor=${cursor}`,
        `sort=age&limit=2&cursor=${altered}`,
        `sort=age&limit=2&cursor=${Buffer.from('{"q":"x","key":"1","id":"x","page":9}').toString('base64url')}.AAAA`,
        `sort=age&limit=2&cursor=garbage`,
      ];
      for (const query of refused) {
        const res = await org.api.get(`/tables/${tableId}/rows?${query}`);
        expect([query, res.status, res.body.error?.code, res.body.error?.details?.field]).toEqual([query, 400, 'VALIDATION_ERROR', 'cursor']);
      }
      const other = await createTable(org.api, FIELDS);
      const elsewhere = await org.api.get(`/tables/${other.id}/rows?sort=age&limit=2&cursor=${cursor}`);
      expect(elsewhere.body.error.details.field).toBe('cursor');
      expect((await org.api.get(`/tables/${tableId}/rows?sort=age&limit=2&cursor=${cursor}`)).status).toBe(200);
    });
  });

  it('counts the filtered rows in pagination.total, whatever the page', async () => {
    const res = await org.api.get(`/tables/${tableId}/rows${filterQuery({ status: { is_empty: false } }, '&limit=1&page=2')}`);
    expect(res.body.pagination).toEqual({ page: 2, limit: 1, total: 4, next_cursor: expect.any(String) });
    expect(res.body.data).toHaveLength(1);
    const beyond = await org.api.get(`/tables/${tableId}/rows?page=99`);
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.pagination.total).toBe(5);
  });

  it.each(['sort=nope', 'order=up', 'limit=101', 'limit=0', 'page=0', 'page=x', 'filter=a&filter=b', 'other=1'])('refuses %s', async (query) => {
    const res = await org.api.get(`/tables/${tableId}/rows?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.field).toBe(query.split('=')[0]);
  });

  it('lists rows with id, data and created_at', async () => {
    const res = await org.api.get(`/tables/${tableId}/rows?limit=1`);
    expect(Object.keys(res.body.data[0])).toEqual(expect.arrayContaining(['id', 'data', 'created_at']));
    expect(res.body.success).toBe(true);
  });
});
