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
});
