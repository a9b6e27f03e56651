import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { minVersion, satisfies } from 'semver';

const REPO_ROOT = resolve(__dirname, '../..');
const read = (file: string) => JSON.parse(readFileSync(resolve(REPO_ROOT, file), 'utf8'));

/** The oldest Node that `engines` promises must run every installed package, as each declares it. */
describe('dependencies and the Node version in engines', () => {
  it('needs no Node newer than the oldest one package.json allows', () => {
    const oldest = minVersion(read('package.json').engines.node)?.version;
    expect(oldest).toBeDefined();
    const lock = read('package-lock.json') as { packages: Record<string, { version?: string; engines?: { node?: string } | string[] }> };
    const tooNew = Object.entries(lock.packages)
      .filter(([path, info]) => path !== '' && info.engines && !Array.isArray(info.engines) && info.engines.node)
      .filter(([, info]) => !satisfies(oldest as string, (info.engines as { node: string }).node))
      .map(([path, info]) => `${path}@${info.version} needs node ${(info.engines as { node: string }).node}`);
    expect(tooNew).toEqual([]);
  });
});
