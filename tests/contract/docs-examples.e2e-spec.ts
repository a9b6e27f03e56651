import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createTestOrg, REPO_ROOT, sdkClient, TestOrg } from '@platform/testing';
// The examples are files of the documentation, not of a project: the test reaches them by path, as a reader copies them.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { nightlySync } from '../../docs/examples/nightly-sync';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { importSpreadsheet } from '../../docs/examples/spreadsheet-import';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { exportTopScores } from '../../docs/examples/table-export';

const docs = (path: string) => readFileSync(resolve(REPO_ROOT, path), 'utf8');

/** docs/data-in-and-out.md shows these files whole; here they run against the system as a reader would run them. */
describe('the examples of docs/data-in-and-out.md', () => {
  let org: TestOrg;
  let tableId: string;

  beforeAll(async () => {
    org = await createTestOrg();
    const created = await sdkClient(org.key).POST('/tables', {
      body: {
        name: `Docs ${Date.now()}`,
        fields: [
          { name: 'Email', field_type: 'email', is_required: true, options: { is_unique: true } },
          { name: 'Name', field_type: 'text' },
          { name: 'Score', field_type: 'number' },
        ],
      },
    });
    tableId = created.data?.data.id ?? '';
  });

  it.each(['nightly-sync.ts', 'spreadsheet-import.ts', 'table-export.ts'])('shows %s as it is', (file) => {
    expect(docs('docs/data-in-and-out.md')).toContain(`\`\`\`ts\n${docs(`docs/examples/${file}`)}`);
  });

  it('syncs by upsert: creates, updates and leaves alone', async () => {
    const api = sdkClient(org.key);
    const records = Array.from({ length: 150 }, (_, i) => ({ email: `p${i}@example.com`, name: `P${i}`, score: i }));
    expect(await nightlySync(api, tableId, records)).toEqual({ created: 150, updated: 0, unchanged: 0 });
    records[3] = { ...records[3], score: 1000 };
    expect(await nightlySync(api, tableId, records)).toEqual({ created: 0, updated: 1, unchanged: 149 });
  });

  it('imports a spreadsheet export, skipping a bad line', async () => {
    const csv = 'E-mail,Name,Score,Notes\r\nsheet1@example.com,Sheet One,1,ignored\r\nnot an email,Bad,2,\r\nsheet2@example.com,Sheet Two,,x\r\n';
    const result = await importSpreadsheet(sdkClient(org.key), tableId, csv);
    expect(result).toMatchObject({ status: 'completed', rows_created: 2, rows_failed: 1 });
    expect(result.errors).toEqual([expect.objectContaining({ line: 3, field: 'email' })]);
  });

  it('exports the top scores as CSV, highest first', async () => {
    // After the two above: the sync's 150 records (p3 scoring 1000) and the spreadsheet's two rows.
    expect(await exportTopScores(sdkClient(org.key), tableId, 148)).toBe('email,score\np3@example.com,1000\np149@example.com,149\np148@example.com,148\n');
  });
});
