import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const SDK_ROOT = resolve(__dirname, '..');
const REPO_ROOT = resolve(SDK_ROOT, '../..');
const NPM = 'npm';

/**
 * The SDK as a user gets it: `npm pack`, installed into an empty project, a sample compiled there with
 * `tsc --strict` (no casts in it), and the installed package loaded by Node.
 */
describe('@org-data-platform/sdk, packed', () => {
  let project: string;

  beforeAll(() => {
    project = mkdtempSync(join(tmpdir(), 'sdk-user-'));
    execFileSync(NPM, ['pack', '--pack-destination', project], { cwd: SDK_ROOT, stdio: 'pipe' });
    const tarball = readdirSync(project).find((name) => name.endsWith('.tgz'));
    if (!tarball) throw new Error('npm pack wrote no tarball');
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'sdk-user', version: '1.0.0', private: true }));
    execFileSync(NPM, ['install', `./${tarball}`, '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: project, stdio: 'pipe' });
  }, 240_000);

  afterAll(() => {
    if (project) rmSync(project, { recursive: true, force: true });
  });

  it('ships JavaScript and declarations, and only them', () => {
    const files = readdirSync(join(project, 'node_modules/@org-data-platform/sdk/dist'));
    expect(files).toEqual(expect.arrayContaining(['index.js', 'index.d.ts', 'api-types.d.ts', 'verify-webhook.js']));
    expect(files.filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))).toEqual([]);
  });

  it('compiles a sample under tsc --strict without a cast', () => {
    copyFileSync(resolve(__dirname, 'sample.ts'), join(project, 'sample.ts'));
    const tsconfig = {
      compilerOptions: { strict: true, noEmit: true, target: 'ES2022', module: 'node16', moduleResolution: 'node16', lib: ['ES2022', 'DOM', 'DOM.Iterable'], types: [] },
      files: ['sample.ts'],
    };
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(tsconfig));
    const tsc = resolve(REPO_ROOT, 'node_modules/typescript/bin/tsc');
    let output = '';
    try {
      execFileSync(process.execPath, [tsc, '-p', project], { cwd: project, encoding: 'utf8', stdio: 'pipe' });
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error);
    }
    expect(output).toBe('');
  }, 120_000);

  it('loads in Node and verifies a signed webhook from the installed package', () => {
    const secret = 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldA==';
    const body = JSON.stringify({ id: 'e', event: 'table.created', timestamp: '2026-11-23T08:00:00.000Z', organization_id: 'o', data: { table_id: 't', table_name: 'T', table_slug: 't' } });
    const signature = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
    const script = `const sdk = require('@org-data-platform/sdk');
      const api = sdk.createApiClient({ baseUrl: 'http://localhost:3000/v1', apiKey: 'k' });
      const payload = sdk.verifyWebhook(process.argv[1], process.argv[2], { 'x-webhook-signature': process.argv[3] });
      let refused = false;
      try { sdk.verifyWebhook(process.argv[1], process.argv[2] + ' ', { 'x-webhook-signature': process.argv[3] }); } catch (e) { refused = e instanceof sdk.WebhookVerificationError; }
      process.stdout.write(JSON.stringify({ get: typeof api.GET, event: payload.event, refused }));`;
    const output = execFileSync(process.execPath, ['-e', script, secret, body, signature], { cwd: project, encoding: 'utf8' });
    expect(JSON.parse(output)).toEqual({ get: 'function', event: 'table.created', refused: true });
  });
});
