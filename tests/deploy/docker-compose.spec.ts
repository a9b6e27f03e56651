import { readFileSync } from 'node:fs';
import { MIGRATION_JOB, PROCESSES } from '@platform/runner';
import { parse } from 'yaml';
import { composeValidator } from './compose-schema';
import { readDockerStages } from './dockerfile-stages';
import { DEFAULT_SHUTDOWN_TIMEOUT_MS, DOCKERFILE, GRACE_MARGIN_MS, HTTP_PORTS, repoPath } from './repo-paths';

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string; target: string };
  command?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  healthcheck?: { test: string[]; disable?: boolean };
  depends_on?: Record<string, { condition: string }>;
  stop_grace_period?: string;
  restart?: string;
}

const compose = parse(readFileSync(repoPath('docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, ComposeService>;
  volumes: Record<string, unknown>;
};
const services = compose.services;
const INFRASTRUCTURE = ['postgres', 'redis', 'nats'];
const dockerTargets = new Set(readDockerStages(DOCKERFILE).map((stage) => stage.name));

function seconds(duration: string): number {
  const match = /^(\d+)(s|m)$/.exec(duration);
  if (!match) throw new Error(`unexpected duration ${duration}`);
  return Number(match[1]) * (match[2] === 'm' ? 60 : 1);
}

describe('docker-compose.yml', () => {
  it('is valid against the Compose specification', () => {
    const validate = composeValidator();
    const valid = validate(compose);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('rejects what the Compose specification rejects (the validator is live)', () => {
    const validate = composeValidator();
    expect(validate({ services: { broken: { healthcheck: { interval: 'ten seconds' } } } })).toBe(false);
    expect(validate({ services: { broken: { depends_on: { x: { condition: 'finished' } } } } })).toBe(false);
    expect(validate({ services: { broken: { restart_policy: 'always' } } })).toBe(false);
  });

  it('runs Postgres, Redis (AOF, noeviction) and NATS (JetStream on a volume) on their own, published on loopback for `npm start`', () => {
    for (const name of INFRASTRUCTURE) {
      const service = services[name];
      expect({ name, dependsOn: service.depends_on }).toEqual({ name, dependsOn: undefined });
      expect(service.healthcheck?.test.length).toBeGreaterThan(0);
      expect(service.ports?.some((port) => port.startsWith('127.0.0.1:'))).toBe(true);
    }
    expect(services.postgres.ports).toContain('127.0.0.1:5432:5432');
    expect(services.redis.ports).toContain('127.0.0.1:6379:6379');
    expect(services.nats.ports).toContain('127.0.0.1:4222:4222');

    const redis = (services.redis.command ?? []).join(' ');
    expect(redis).toMatch(/--appendonly yes/);
    expect(redis).toMatch(/--maxmemory-policy noeviction/);

    const nats = services.nats.command ?? [];
    expect(nats).toContain('--jetstream');
    const storeDir = nats[nats.indexOf('--store_dir') + 1];
    const volume = services.nats.volumes?.find((mount) => mount.endsWith(`:${storeDir}`));
    expect(volume).toBeDefined();
    expect(Object.keys(compose.volumes)).toContain(volume?.split(':')[0]);
  });

  it('migrates every schema once, after Postgres is healthy, before any app starts', () => {
    const migrate = services.migrate;
    expect(migrate.build?.target).toBe('migrate');
    expect(migrate.restart).toBe('no');
    expect(migrate.depends_on?.postgres?.condition).toBe('service_healthy');
    expect(migrate.command).toEqual(['sh', '-c', expect.stringMatching(new RegExp(`^node ${MIGRATION_JOB} && `))]);
  });

  it.each(PROCESSES.map((spec) => [spec.name, spec] as const))('runs %s as its own service from its Dockerfile target, health-checked, after migrations', (name, spec) => {
    const service = services[name];
    expect(service).toBeDefined();
    expect(service.build).toEqual({ context: '.', dockerfile: DOCKERFILE, target: name });
    expect(dockerTargets.has(name)).toBe(true);
    expect(service.environment?.HEALTH_PORT).toBe(String(spec.healthPort));
    expect(service.healthcheck?.disable).not.toBe(true);
    expect(service.healthcheck?.test).toEqual(['CMD', 'node', 'healthcheck.js']);
    expect(service.depends_on?.migrate?.condition).toBe('service_completed_successfully');
    expect(service.depends_on?.nats?.condition).toBe('service_healthy');
    for (const [dependency, { condition }] of Object.entries(service.depends_on ?? {})) {
      expect({ dependency, condition }).toEqual({ dependency, condition: dependency === 'migrate' ? 'service_completed_successfully' : 'service_healthy' });
    }
    expect(service.environment?.NATS_URL).toBe('nats://nats:4222');
    expect(service.environment?.DATABASE_URL).toMatch(/@postgres:5432\//);
    expect(service.environment?.REDIS_URL).toBe('redis://redis:6379');
    const shutdownMs = Number(service.environment?.SHUTDOWN_TIMEOUT_MS ?? DEFAULT_SHUTDOWN_TIMEOUT_MS);
    expect(seconds(service.stop_grace_period ?? '10s') * 1000).toBeGreaterThanOrEqual(shutdownMs + GRACE_MARGIN_MS);
  });

  it('publishes the gateway on 3000 and nothing else of the apps', () => {
    expect(services.gateway.ports).toEqual([`${HTTP_PORTS.gateway}:${HTTP_PORTS.gateway}`]);
    expect(services.gateway.environment?.PORT).toBe(String(HTTP_PORTS.gateway));
    for (const spec of PROCESSES.filter((candidate) => candidate.name !== 'gateway')) expect(services[spec.name].ports).toBeUndefined();
  });
});
