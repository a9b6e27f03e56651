#!/usr/bin/env node
// Compiles every app, lib and script to dist/ (incrementally) and rewrites path aliases to relative paths.
// Type errors fail the build, but what compiled is still written, so one context's error does not stop others.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const quiet = process.argv.includes('--quiet');
// `--clean` starts from an empty dist/, so what runs is exactly what the sources say (tests use it).
if (process.argv.includes('--clean')) rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
const run = (bin, args) =>
  spawnSync(process.execPath, [require.resolve(bin), ...args], { stdio: quiet ? ['ignore', 'ignore', 'inherit'] : 'inherit' }).status;

const typeCheck = run('typescript/bin/tsc', ['-p', 'tsconfig.build.json']);
const aliases = run('tsc-alias/dist/bin/index.js', ['-p', 'tsconfig.build.json']);
// The web console is bundled by Vite (React, the DOM) rather than compiled by tsc; the gateway serves it.
const webConsole = run('./build-console.mjs', []);
if (typeCheck !== 0 || aliases !== 0 || webConsole !== 0) {
  process.stderr.write('build failed\n');
  process.exit(1);
}
