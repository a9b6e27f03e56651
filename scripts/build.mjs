#!/usr/bin/env node
// Compiles every app, lib and script to dist/ (incrementally) and rewrites path aliases to relative paths.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const quiet = process.argv.includes('--quiet');
const run = (bin, args) =>
  execFileSync(process.execPath, [require.resolve(bin), ...args], { stdio: quiet ? ['ignore', 'ignore', 'inherit'] : 'inherit' });

try {
  run('typescript/bin/tsc', ['-p', 'tsconfig.build.json']);
  run('tsc-alias/dist/bin/index.js', ['-p', 'tsconfig.build.json']);
} catch {
  process.stderr.write('build failed\n');
  process.exit(1);
}
