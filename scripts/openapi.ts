/**
 * Writes openapi.json at the repository root from the declared operations and contract classes,
 * without connecting to anything, then the SDK's types from it with openapi-typescript:
 * `npm run build && node dist/scripts/openapi.js`.
 */
import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createOpenApiDocument } from '../apps/gateway/src/openapi/openapi-document';

const root = resolve(__dirname, '..', '..');
const target = resolve(root, 'openapi.json');

async function main(): Promise<void> {
  const document = await createOpenApiDocument();
  writeFileSync(target, `${JSON.stringify(document, null, 2)}\n`);
  process.stdout.write(`${target}: ${Object.keys(document.paths).length} paths\n`);
  // The generator's options live in one place, the SDK's `generate:types` script, which its stale-types spec runs too.
  const generated = spawnSync('npm', ['run', '--silent', 'generate:types'], { cwd: resolve(root, 'libs/sdk'), stdio: 'inherit' });
  if (generated.status !== 0) throw new Error('openapi-typescript failed to write libs/sdk/src/api-types.ts');
}

main().catch((error: unknown) => {
  process.stderr.write(`openapi: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
