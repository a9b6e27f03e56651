import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { apiClient, createTestOrg, gatewayUrl } from '@platform/testing';
import { allBlocks, DocBlock } from './doc-blocks';

const run = promisify(execFile);

/** Blocks that drive another system than the API (Docker, Kubernetes) are not run against the test stack. */
const needsAnotherSystem = (block: DocBlock) => /\b(docker|kubectl|kustomize)\b/.test(block.code);

/**
 * Every shell block of README.md and docs/ that calls the API with curl runs against the test stack, as a
 * reader would paste it: `$KEY`, `$API`/`$BASE` and the ids a block names (`$TABLE`, `$ID`, `$NEXT`,
 * `$UPLOAD_URL`) are set, `http://localhost:3000` is the stack's gateway, and curl fails the block on
 * any answer that is not 2xx.
 */
describe('curl examples in the documents', () => {
  const blocks = allBlocks(['sh', 'bash', 'shell']).filter((block) => /(^|\s)curl\s/.test(block.code) && !needsAnotherSystem(block));
  const folder = mkdtempSync(join(tmpdir(), 'doc-curl-'));
  let env: Record<string, string>;

  beforeAll(async () => {
    const org = await createTestOrg({ plan: 250 });
    const api = apiClient(org.key);
    const table = await api.post('/tables', {
      name: 'Documented',
      fields: [
        { name: 'Amount', field_type: 'number' },
        { name: 'Status', field_type: 'text' },
        { name: 'Documents', field_type: 'attachment' },
      ],
    });
    expect(table.status).toBe(201);
    const tableId: string = table.body.data.id;
    // More rows than one page of the guide's cursor example (limit=100), so its first page has a next_cursor.
    const rows = Array.from({ length: 100 }, (_, i) => ({ data: { amount: i * 5, status: 'open' } }));
    for (const batch of [rows, rows.slice(0, 5)]) expect((await api.post(`/tables/${tableId}/rows/batch`, { rows: batch })).status).toBe(201);
    const page = await api.get(`/tables/${tableId}/rows?limit=100&sort=created_at`);
    expect(page.body.pagination.next_cursor).toEqual(expect.any(String));
    const webhook = await api.post('/webhooks', { name: 'Documented', url: 'http://127.0.0.1:9/hook', events: ['row.created'] });
    expect(webhook.status).toBe(201);
    // The attachments guide uploads contract.pdf (48,213 bytes) to the URL its first step answers.
    writeFileSync(join(folder, 'contract.pdf'), Buffer.alloc(48_213, 1));
    const ticket = await api.post(`/tables/${tableId}/uploads`, { filename: 'contract.pdf', mime_type: 'application/pdf', size: 48_213 });
    expect(ticket.status).toBe(201);
    env = {
      PATH: process.env.PATH ?? '',
      HOME: folder,
      KEY: org.key,
      API: gatewayUrl(),
      BASE: gatewayUrl(),
      TABLE: tableId,
      NEXT: page.body.pagination.next_cursor,
      ID: webhook.body.data.id,
      UPLOAD_URL: ticket.body.data.upload_url,
    };
  });

  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('finds the examples', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(5);
  });

  it.each(blocks.map((block) => [`${block.file}:${block.line}`, block] as const))('runs %s', async (_where, block) => {
    const origin = new URL(gatewayUrl()).origin;
    const script = ['set -euo pipefail', 'curl() { command curl --fail-with-body --silent --show-error --max-time 20 "$@"; }', block.code.replaceAll('http://localhost:3000', origin)].join('\n');
    const result = await run('bash', ['-c', script], { cwd: folder, env, timeout: 60_000 }).catch((error: { code: number; stdout: string; stderr: string }) => error);
    expect({ exit: 'code' in result ? result.code : 0, stderr: result.stderr }).toEqual({ exit: 0, stderr: '' });
  });
});
