import { ConfigError, loadConfig } from '@platform/config';
import { WebhooksConfig } from './webhooks.config';

const KEY = Buffer.alloc(32, 7).toString('base64');

describe('WebhooksConfig private targets', () => {
  const allows = (env: NodeJS.ProcessEnv) => loadConfig(WebhooksConfig, { SECRET_ENCRYPTION_KEY: KEY, ...env }).allowPrivateTargets;

  it('allows loopback and private receivers by default outside production, and refuses them by default in production', () => {
    expect(allows({ NODE_ENV: 'development' })).toBe(true);
    expect(allows({ NODE_ENV: 'test' })).toBe(true);
    expect(allows({ NODE_ENV: 'production' })).toBe(false);
  });

  it('follows WEBHOOK_ALLOW_PRIVATE_TARGETS when it is set, in any environment', () => {
    expect(allows({ NODE_ENV: 'development', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' })).toBe(false);
    expect(allows({ NODE_ENV: 'production', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' })).toBe(true);
  });

  it('refuses another value, naming the variable', () => {
    expect(() => allows({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'yes' })).toThrow(ConfigError);
    expect(() => allows({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'yes' })).toThrow(/WEBHOOK_ALLOW_PRIVATE_TARGETS/);
  });
});
