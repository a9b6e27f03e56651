import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

describe('the SDK types', () => {
  it('are what openapi-typescript generates from the committed openapi.json (regenerate: node dist/scripts/openapi.js)', () => {
    const check = spawnSync('npm', ['run', '--silent', 'generate:types', '--', '--check'], { cwd: resolve(__dirname, '..'), encoding: 'utf8', timeout: 60_000 });
    expect({ status: check.status, output: check.stdout + check.stderr }).toEqual({ status: 0, output: expect.not.stringMatching(/not up-to-date/) });
  });
});
