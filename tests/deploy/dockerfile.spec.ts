import { existsSync, readFileSync } from 'node:fs';
import { MIGRATION_JOB, NODE_FLAGS, PROCESSES } from '@platform/runner';
import { DockerStage, effectiveImage, readDockerStages } from './dockerfile-stages';
import { assertBuilt, DOCKERFILE, HTTP_PORTS, repoPath } from './repo-paths';

const stages = readDockerStages(DOCKERFILE);
const stage = (name: string): DockerStage => {
  const found = stages.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`${DOCKERFILE} has no stage "${name}"`);
  return found;
};
const ignored = readFileSync(repoPath('.dockerignore'), 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line !== '' && !line.startsWith('#'));

describe('deploy/docker/Dockerfile', () => {
  it('builds and runs on the current Node.js LTS, 24', () => {
    expect(readFileSync(repoPath(DOCKERFILE), 'utf8')).toMatch(/^ARG NODE_IMAGE=node:24-[a-z]+-slim$/m);
  });

  it('installs every dependency with npm ci, builds with Nx, and ships production dependencies only', () => {
    expect(stage('deps').runs.some((run) => /^npm ci\b/.test(run) && !run.includes('--omit=dev'))).toBe(true);
    expect(stage('build').runs).toContain('npx nx run-many -t build --projects=scripts,console,tag:type:app --outputStyle=static');
    expect(stage('prod-deps').runs.some((run) => /^npm ci\b.*--omit=dev/.test(run))).toBe(true);
    const runtime = stage('runtime');
    expect(runtime.stageCopies).toEqual(expect.arrayContaining(['prod-deps:/app/node_modules', 'build:/app/dist', 'build:/app/manifests/apps']));
    // The migration job and the admin command read the apps' manifests at run time.
    expect(stage('build').runs).toContain('mkdir manifests && cp --parents apps/*/manifest.json manifests/');
    expect(runtime.stageCopies.some((copy) => copy.startsWith('deps:'))).toBe(false);
    expect(runtime.env.NODE_ENV).toBe('production');
  });

  it('copies from the build context only files that exist and that .dockerignore lets through', () => {
    const copies = stages.flatMap((candidate) => candidate.contextCopies);
    expect(copies.length).toBeGreaterThan(0);
    for (const source of copies) {
      expect({ source, exists: existsSync(repoPath(source)) }).toEqual({ source, exists: true });
      const excludedBy = ignored.filter((pattern) => source === pattern || source.startsWith(`${pattern}/`));
      expect({ source, excludedBy }).toEqual({ source, excludedBy: [] });
    }
  });

  it('copies every source folder that the build compiles the apps from', () => {
    const copied = new Set(stage('build').contextCopies);
    const { compilerOptions } = JSON.parse(readFileSync(repoPath('tsconfig.base.json'), 'utf8')) as { compilerOptions: { paths: Record<string, string[]> } };
    const roots = new Set(['apps', ...Object.values(compilerOptions.paths).flat().map((path) => path.split('/')[0])]);
    for (const root of roots) expect({ root, copied: copied.has(root) }).toEqual({ root, copied: true });
    for (const config of ['nx.json', 'tsconfig.base.json', 'tools']) expect(copied.has(config)).toBe(true);
  });

  it.each(PROCESSES.map((spec) => [spec.name, spec] as const))('has a target "%s" that runs the entry file the build produces with the runner\'s V8 flags, as a non-root user', (name, spec) => {
    const image = effectiveImage(stages, name);
    expect(image.lineage.map((candidate) => candidate.name)).toContain('runtime');
    expect(NODE_FLAGS.length).toBeGreaterThan(0);
    expect(image.cmd).toEqual(['node', ...NODE_FLAGS, spec.entry]);
    assertBuilt(spec.entry);
    expect(image.env.HEALTH_PORT).toBe(String(spec.healthPort));
    if (HTTP_PORTS[name]) expect(image.env.PORT).toBe(String(HTTP_PORTS[name]));
    expect(image.user).toBeDefined();
    expect(image.user).not.toMatch(/^(root|0)(:|$)/);
    expect(image.healthcheck).toMatch(/healthcheck\.js/);
  });

  it('has a migrate target that runs the migration job the build produces', () => {
    const image = effectiveImage(stages, 'migrate');
    expect(image.user).not.toMatch(/^(root|0)(:|$)/);
    expect(image.cmd).toEqual(['node', MIGRATION_JOB]);
    assertBuilt(MIGRATION_JOB);
    expect(image.healthcheck).toBe('NONE');
  });
});
