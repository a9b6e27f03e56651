#!/usr/bin/env node
// Rewrites the path aliases (`@platform/config`, ...) in one project's compiled JavaScript under dist/ to
// relative requires, so that node runs dist/ as it is. Only that project's own files: projects build side by
// side, each after the projects it references, and none may touch another's output.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { prepareSingleFileReplaceTscAliasPaths } from 'tsc-alias';

const project = process.argv[2];
const replace = await prepareSingleFileReplaceTscAliasPaths({ configFile: resolve(project, 'tsconfig.build.json') });
const output = resolve('dist', project);
for (const file of await readdir(output, { recursive: true })) {
  if (!file.endsWith('.js')) continue;
  const filePath = join(output, file);
  const fileContents = await readFile(filePath, 'utf8');
  const rewritten = replace({ fileContents, filePath });
  if (rewritten !== fileContents) await writeFile(filePath, rewritten);
}
