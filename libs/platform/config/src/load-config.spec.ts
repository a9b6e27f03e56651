import { IsInt, Max, Min } from 'class-validator';
import { BaseConfig, ServiceConfig } from './base.config';
import { ConfigError, loadConfig } from './load-config';

class PortConfig extends BaseConfig {
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;
}

describe('loadConfig', () => {
  it('keeps defaults for unset and empty variables', () => {
    const config = loadConfig(PortConfig, { PORT: '' });
    expect(config.PORT).toBe(3000);
    expect(config.DATABASE_URL).toBe('postgres://postgres@127.0.0.1:5432/platform');
  });

  it('reads numbers from the environment', () => {
    expect(loadConfig(PortConfig, { PORT: '4100' }).PORT).toBe(4100);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '1.5'],
    ['DATABASE_URL', 'mysql://x'],
    ['NATS_URL', 'not a url'],
    ['NODE_ENV', 'staging'],
  ])('refuses %s=%s and names the variable', (name, value) => {
    expect(() => loadConfig(PortConfig, { [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig(PortConfig, { [name]: value })).toThrow(new RegExp(`^Invalid configuration: ${name} `));
  });

  it('refuses a share for an organization alone below the share while others are active', () => {
    expect(() => loadConfig(ServiceConfig, { DATABASE_POOL_ORGANIZATION_SHARE: '0.6' })).toThrow(
      'Invalid configuration: DATABASE_POOL_ORGANIZATION_SHARE_ALONE must be at least DATABASE_POOL_ORGANIZATION_SHARE',
    );
    expect(loadConfig(ServiceConfig, { DATABASE_POOL_ORGANIZATION_SHARE: '0.6', DATABASE_POOL_ORGANIZATION_SHARE_ALONE: '0.6' }).DATABASE_POOL_ORGANIZATION_SHARE_ALONE).toBe(0.6);
  });

  it('runs service statements without parallel workers unless told otherwise, and refuses what Postgres would not take', () => {
    expect(loadConfig(ServiceConfig, {}).DATABASE_PARALLEL_WORKERS_PER_QUERY).toBe(0);
    expect(loadConfig(ServiceConfig, { DATABASE_PARALLEL_WORKERS_PER_QUERY: '4' }).DATABASE_PARALLEL_WORKERS_PER_QUERY).toBe(4);
    for (const value of ['-1', '1.5', '17', 'two']) {
      expect(() => loadConfig(ServiceConfig, { DATABASE_PARALLEL_WORKERS_PER_QUERY: value })).toThrow(/^Invalid configuration: DATABASE_PARALLEL_WORKERS_PER_QUERY /);
    }
  });

  it('takes a comma list of NATS servers (a cluster) and refuses one bad member of it', () => {
    const cluster = 'nats://10.0.0.1:4222, nats://10.0.0.2:4222,tls://10.0.0.3:4222';
    expect(loadConfig(BaseConfig, { NATS_URL: cluster }).NATS_URL).toBe(cluster);
    expect(() => loadConfig(BaseConfig, { NATS_URL: 'nats://10.0.0.1:4222,http://10.0.0.2:4222' })).toThrow(/^Invalid configuration: NATS_URL /);
  });

  it('keeps one replica of the event stream unless told otherwise, and refuses a count JetStream would not take', () => {
    expect(loadConfig(BaseConfig, {}).JETSTREAM_REPLICAS).toBe(1);
    expect(loadConfig(BaseConfig, { JETSTREAM_REPLICAS: '3' }).JETSTREAM_REPLICAS).toBe(3);
    for (const value of ['0', '6', '2.5', 'three']) {
      expect(() => loadConfig(BaseConfig, { JETSTREAM_REPLICAS: value })).toThrow(/^Invalid configuration: JETSTREAM_REPLICAS /);
    }
  });

  it('gives requests in flight a grace period on SIGTERM that fits in the shutdown timeout', () => {
    expect(loadConfig(ServiceConfig, {}).RPC_SHUTDOWN_GRACE_MS).toBe(10000);
    expect(() => loadConfig(ServiceConfig, { RPC_SHUTDOWN_GRACE_MS: '30000' })).toThrow('Invalid configuration: RPC_SHUTDOWN_GRACE_MS must be at most SHUTDOWN_TIMEOUT_MS');
    expect(loadConfig(ServiceConfig, { RPC_SHUTDOWN_GRACE_MS: '30000', SHUTDOWN_TIMEOUT_MS: '40000' }).RPC_SHUTDOWN_GRACE_MS).toBe(30000);
  });
});
