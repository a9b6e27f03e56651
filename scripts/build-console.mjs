#!/usr/bin/env node
// Builds the web console (apps/console) into dist/apps/console, which the gateway serves at /console:
// a type-check of its sources, then Vite's production bundle. Skipped when none of its inputs changed
// since the last build (a hash of them is kept beside dist/), so an unchanged console costs nothing;
// `--force` builds anyway.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = fileURLToPath(new URL('..', import.meta.url));
const consoleRoot = join(root, 'apps/console');
const outDir = join(root, 'dist/apps/console');
const stampFile = join(root, 'dist/.console-inputs');

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && !/\.(e2e-)?spec\.tsx?$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

function inputsHash() {
  const files = [
    ...filesUnder(join(consoleRoot, 'src')),
    ...['index.html', 'vite.config.mjs', 'tsconfig.build.json'].map((name) => join(consoleRoot, name)),
    ...filesUnder(join(root, 'libs/sdk/src')),
    join(root, 'package-lock.json'),
  ].sort();
  const hash = createHash('sha256');
  for (const file of files) hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

const hash = inputsHash();
const current = existsSync(join(outDir, 'index.html')) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === hash;
if (current && !process.argv.includes('--force')) process.exit(0);

const typeCheck = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(consoleRoot, 'tsconfig.build.json')], { stdio: 'inherit' });
if (typeCheck.status !== 0) {
  process.stderr.write('console: type errors\n');
  process.exit(1);
}
const { build } = await import('vite');
await build({ configFile: join(consoleRoot, 'vite.config.mjs') });
writeFileSync(stampFile, hash);
