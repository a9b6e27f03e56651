import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { apiClient, createTestOrg, eventually, Receiver, REPO_ROOT, type TestOrg } from '@platform/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { accessibilityProblems, consoleUrl, DESKTOP, launchChromium, seriousViolations, signIn as signInWith } from './browser';

/**
 * The web console in headless Chromium against the real stack: what a person does with it, through the
 * gateway's /console and the API behind it. The README's screenshot is taken here (CONSOLE_SCREENSHOT
 * names where it goes; docs/console.png when refreshing the one the README shows).
 */
const SCREENSHOT = resolve(REPO_ROOT, process.env.CONSOLE_SCREENSHOT ?? 'dist/console.png');
const BUNDLE_LIMIT_BYTES = 250 * 1024;

describe('the web console', () => {
  let browser: Browser;
  let org: TestOrg;
  let receiver: Receiver;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    [org, receiver, browser] = await Promise.all([createTestOrg({ plan: 250 }), Receiver.start(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
  });
  beforeEach(async () => {
    context = await browser.newContext({ viewport: DESKTOP, permissions: ['clipboard-read', 'clipboard-write'] });
    page = await context.newPage();
  });
  afterEach(async () => {
    await context?.close();
  });

  const signIn = (key: string) => signInWith(page, key);
  const expectAccessibleAtBothSizes = async () => expect(await accessibilityProblems(page)).toEqual([]);

  it('serves JavaScript and CSS of at most 250 KB gzipped in all', () => {
    const assets = resolve(REPO_ROOT, 'dist/apps/console/assets');
    const files = readdirSync(assets).filter((name) => /\.(js|css)$/.test(name));
    expect(files.some((name) => name.endsWith('.js'))).toBe(true);
    const gzipped = files.reduce((sum, name) => sum + gzipSync(readFileSync(resolve(assets, name)), { level: 9 }).length, 0);
    expect(gzipped).toBeLessThanOrEqual(BUNDLE_LIMIT_BYTES);
  });

  it('keeps the key in session storage only, refuses a wrong key with the API message, and forgets the key on sign-out', async () => {
    await page.goto(consoleUrl());
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel('API key').fill('sk_not_a_key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('401 UNAUTHORIZED: Invalid API key');

    await signIn(org.key);
    expect(await page.evaluate(() => Object.values(sessionStorage))).toEqual([org.key]);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    await page.reload();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  });

  it('offers only what the key may do and says why the rest is missing', async () => {
    const reader = await createTestOrg({ plan: 0, scopes: 'tables:read' });
    await signIn(reader.key);
    const sections = page.getByRole('navigation', { name: 'Sections' });
    await expect(sections.getByRole('link').allTextContents()).resolves.toEqual(['Tables']);
    await page.getByText('This key cannot see Webhooks, Domains, Availability').click();
    await expect(page.getByText(/Webhooks: FORBIDDEN: .*webhooks:read/).count()).resolves.toBe(1);
    await expect(page.getByText(/Domains: FORBIDDEN|Domains: PLAN_REQUIRED/).count()).resolves.toBe(1);
    await expect(page.getByRole('heading', { name: 'New table' }).count()).resolves.toBe(0);
  });

  it('makes a table, adds, edits, filters and deletes rows, uploads a file; webhooks show deliveries live and redeliver; domains show their records', async () => {
    await signIn(org.key);

    // A table with fields of several types.
    const create = page.getByRole('form', { name: 'New table' });
    await create.getByLabel('Name').first().fill('Deals');
    const field = (n: number) => create.getByRole('group', { name: new RegExp(`^Field ${n}\\b`) });
    await field(1).getByLabel('Name').fill('Title');
    await field(1).getByLabel('Required').check();
    await field(1).getByLabel(/Fast text search/).check();
    await create.getByRole('button', { name: 'Add a field' }).click();
    await field(2).getByLabel('Name').fill('Amount');
    await field(2).getByLabel('Type').selectOption('currency');
    await field(2).getByLabel('Currency (ISO 4217)').fill('EUR');
    await create.getByRole('button', { name: 'Add a field' }).click();
    await field(3).getByLabel('Name').fill('Stage');
    await field(3).getByLabel('Type').selectOption('select');
    await field(3).getByLabel('Values, one a line').fill('new\nwon');
    await create.getByRole('button', { name: 'Add a field' }).click();
    await field(4).getByLabel('Name').fill('Files');
    await field(4).getByLabel('Type').selectOption('attachment');
    await create.getByRole('button', { name: 'Create table' }).click();
    await page.getByRole('heading', { name: 'Deals' }).waitFor();
    const tableId = /#\/tables\/([0-9a-f-]{36})/.exec(page.url())?.[1] as string;
    const api = apiClient(org.key);
    const stored = await api.get(`/tables/${tableId}`);
    expect(stored.body.data.fields.map((f: any) => [f.slug, f.field_type, f.is_required, f.options])).toEqual([
      ['title', 'text', true, { searchable: true }],
      ['amount', 'currency', false, { currency: 'EUR', precision: 2 }],
      ['stage', 'select', false, { values: ['new', 'won'] }],
      ['files', 'attachment', false, {}],
    ]);

    // Rows: a required field left out is the API's error beside its input; then two rows.
    await page.getByLabel('New row Amount').fill('10');
    await page.getByRole('button', { name: 'Add row' }).click();
    await expect(page.getByRole('alert').first().textContent()).resolves.toMatch(/title/i);
    await page.getByLabel('New row Title (required)').fill('Alpha');
    await page.getByLabel('New row Stage').selectOption('new');
    await page.getByRole('button', { name: 'Add row' }).click();
    await page.getByText('Row added', { exact: true }).waitFor();
    await page.getByLabel('New row Title (required)').fill('Beta');
    await page.getByLabel('New row Amount').fill('250');
    await page.getByLabel('New row Stage').selectOption('won');
    await page.getByRole('button', { name: 'Add row' }).click();
    await page.getByText('2 rows', { exact: true }).waitFor();

    // Inline edit, with a refused value first.
    await page.getByRole('button', { name: 'Edit Amount of row 1' }).click();
    await page.getByLabel('Amount of row 1').fill('lots');
    await page.getByLabel('Amount of row 1').press('Enter');
    await expect(page.getByRole('alert').first().textContent()).resolves.toContain('VALIDATION_ERROR');
    await page.getByLabel('Amount of row 1').fill('15');
    await page.getByLabel('Amount of row 1').press('Enter');
    await page.getByRole('cell', { name: /15\.00/ }).waitFor();
    const rows = () => api.get(`/tables/${tableId}/rows?sort=title`).then((answer) => answer.body.data.map((row: any) => [row.data.title, row.data.amount, row.data.stage]));
    await expect(rows()).resolves.toEqual([
      ['Alpha', 15, 'new'],
      ['Beta', 250, 'won'],
    ]);

    // The filter builder writes the rows list grammar.
    const filter = page.getByRole('form', { name: 'Filter rows' });
    await filter.getByRole('button', { name: 'Add a condition' }).click();
    await filter.getByLabel('Condition 1 field').selectOption('amount');
    await filter.getByLabel('Condition 1 operator').selectOption('gte');
    await filter.getByLabel('Condition 1 value').fill('100');
    await expect(filter.getByLabel('Filter (JSON, the rows list grammar)').inputValue()).resolves.toBe('{"amount":{"gte":100}}');
    await filter.getByRole('button', { name: 'Apply filter' }).click();
    await page.getByText('1 row match', { exact: true }).waitFor();
    await expect(page.locator('table.grid tbody tr').count()).resolves.toBe(1);
    await expect(page.locator('table.grid tbody').textContent()).resolves.toContain('Beta');
    // A refused filter shows the API's error and none of the rows of the filter before it.
    await filter.getByLabel('Filter (JSON, the rows list grammar)').fill('{"nope":1}');
    await filter.getByRole('button', { name: 'Apply filter' }).click();
    // The API's message (the filter's own text names `nope` too, so wait for the message itself).
    await page.getByText(/is not a field of this table/).first().waitFor();
    await expect(page.locator('table.grid tbody').textContent()).resolves.not.toContain('Beta');
    await expect(page.getByText('1 row match', { exact: true }).count()).resolves.toBe(0);
    // Sort by a column: Beta before Alpha once the filter is cleared and the order is descending.
    await filter.getByRole('button', { name: 'Clear' }).click();
    await page.getByText('2 rows', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Title', exact: true }).click();
    await page.locator('th[aria-sort="ascending"]').waitFor();
    await page.getByRole('button', { name: 'Title', exact: true }).click();
    await page.locator('th[aria-sort="descending"]').waitFor();
    await page.locator('table.grid tbody tr').first().filter({ hasText: 'Beta' }).waitFor();

    // A file into row 1 (Beta, in this order), with the progress bar, then saved with the row.
    await page.getByRole('button', { name: 'Edit Files of row 1' }).click();
    await page.getByLabel('Upload a file to Files of row 1').setInputFiles({ name: 'contract.txt', mimeType: 'text/plain', buffer: Buffer.from('signed by both parties\n') });
    await page.getByText('Uploaded', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('link', { name: 'contract.txt' }).waitFor();
    const beta = (await api.get(`/tables/${tableId}/rows?filter=${encodeURIComponent('{"title":"Beta"}')}`)).body.data[0];
    expect(beta.data.files).toEqual([expect.objectContaining({ filename: 'contract.txt', size: 23, mime_type: 'text/plain' })]);
    expect(await (await fetch(beta.data.files[0].url)).text()).toBe('signed by both parties\n');

    await expectAccessibleAtBothSizes();
    await page.screenshot({ path: SCREENSHOT });

    // Batch delete of the selected row.
    await page.getByLabel('Select row 2').check();
    await page.getByRole('button', { name: 'Delete selected (1)' }).click();
    await page.getByRole('button', { name: 'Delete 1 rows' }).click();
    await page.getByText('Deleted 1 row').waitFor();
    await page.getByText('1 row', { exact: true }).waitFor();
    await expect(rows()).resolves.toEqual([['Beta', 250, 'won']]);

    // A webhook: created with its secret shown once, then its delivery log live.
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByLabel('Name').fill('Deals feed');
    await page.getByLabel('URL').fill(receiver.url('/console-hook'));
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await expect(page.locator('.secret code').textContent()).resolves.toMatch(/^whsec_/);
    await page.getByRole('status').getByRole('link', { name: 'Deals feed' }).click();
    await page.getByRole('heading', { name: 'Deliveries' }).waitFor();
    await api.post(`/tables/${tableId}/rows`, { data: { title: 'Gamma' } });
    const first = await eventually(() => receiver.at('/console-hook')[0] ?? Promise.reject(new Error('no delivery yet')), { timeoutMs: 30_000 });
    const log = page.locator('table.deliveries tbody tr');
    await log.first().waitFor({ timeout: 5_000 });
    // Shown within the 2 s the console promises (its refresh), plus the time the dispatcher takes to record the attempt.
    expect(Date.now() - first.receivedAt).toBeLessThan(5_000);
    await expect(log.first().textContent()).resolves.toMatch(/row\.created.*200.*ms/);
    await expectAccessibleAtBothSizes();
    await log.first().getByRole('button', { name: 'Redeliver' }).click();
    await page.getByText(/queued again/).waitFor();
    const again = await eventually(() => receiver.at('/console-hook')[1] ?? Promise.reject(new Error('no redelivery yet')), { timeoutMs: 30_000 });
    expect(again.headers['webhook-id']).toBe(first.headers['webhook-id']);
    await expect(log.count()).resolves.toBeGreaterThanOrEqual(1);
    await eventually(async () => expect(await log.count()).toBe(2), { timeoutMs: 5_000 });

    // A domain and the records to set, each with a copy button.
    await page.getByRole('link', { name: 'Domains' }).click();
    const domain = `console-${Date.now().toString(36)}.example.com`;
    await page.getByLabel('Domain', { exact: true }).fill(domain);
    await page.getByRole('button', { name: 'Add domain' }).click();
    await page.getByRole('heading', { name: domain }).waitFor();
    const records = page.locator('table.records tbody tr');
    await expect(records.count()).resolves.toBe(4);
    await expect(page.locator('table.records tbody').textContent()).resolves.toMatch(/MX.*TXT.*CNAME.*CNAME/s);
    const mx = (await api.get(`/domains`)).body.data.find((d: any) => d.domain === domain);
    const mxRecord = (await api.get(`/domains/${mx.id}`)).body.data.dns_records.find((r: any) => r.type === 'MX');
    await page.getByRole('button', { name: `Copy MX record value for ${mxRecord.name}` }).click();
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(mxRecord.value);
    await page.getByRole('button', { name: 'Verify now' }).click();
    await page.getByText(/Checked: \d+ issues?/).waitFor({ timeout: 30_000 });
    await page.locator('ul.issues li').first().waitFor();
    await expectAccessibleAtBothSizes();
  }, 240_000);

  it('edits weekly hours in a time zone with a date override and shows the open windows of the next 14 days', async () => {
    await signIn(org.key);
    await page.getByRole('link', { name: 'Availability' }).click();
    await page.getByRole('button', { name: 'Add hours on Monday' }).click();
    await page.getByLabel('Time zone').selectOption('Europe/Berlin');
    await page.getByRole('button', { name: 'Add a date override' }).click();
    const override = page.getByRole('group', { name: 'Override 1' });
    await override.getByLabel('Date', { exact: true }).fill('2031-12-24');
    await override.getByLabel('Unavailable all day').uncheck();
    await override.getByLabel('From', { exact: true }).fill('13:00:00');
    await override.getByLabel('To', { exact: true }).fill('09:00:00');
    await page.getByRole('button', { name: 'Save availability' }).click();
    // The API's message for the override stands beside it.
    await expect(override.getByRole('alert').textContent()).resolves.toContain('overrides[0]');
    await override.getByLabel('Unavailable all day').check();
    await page.getByRole('button', { name: 'Save availability' }).click();
    await page.getByText('Saved', { exact: true }).waitFor();
    const stored = await apiClient(org.key).get('/calendar/availability');
    expect(stored.body).toMatchObject({ timezone: 'Europe/Berlin', schedules: [{ day_of_week: 1, start_time: '09:00:00', end_time: '17:00:00' }], overrides: [{ date: '2031-12-24', unavailable: true }] });
    const windows = page.getByRole('region', { name: /Open windows/ });
    await expect(windows.locator('dt').count()).resolves.toBe(14);
    await expect(windows.locator('dd').allTextContents()).resolves.toContain('09:00–17:00');
    await expectAccessibleAtBothSizes();
  }, 120_000);
});
