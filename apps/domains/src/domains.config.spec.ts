import { ConfigError, loadConfig } from '@platform/config';
import { DEVELOPMENT_MAIL_HOSTS, DomainsConfig } from './domains.config';

describe('DomainsConfig: the background re-check', () => {
  it('defaults to checks 1m, 5m, 15m and 1h after creation, then hourly; active domains daily; 10 at once', () => {
    const config = loadConfig(DomainsConfig, {});
    expect(config.recheckScheduleMs).toEqual([60_000, 300_000, 900_000, 3_600_000]);
    expect(config.recheckIntervalMs).toBe(86_400_000);
    expect(config.DOMAIN_RECHECK_CONCURRENCY).toBe(10);
  });

  it('reads a schedule in any unit', () => {
    expect(loadConfig(DomainsConfig, { DOMAIN_RECHECK_SCHEDULE: '500ms,2s,1m' }).recheckScheduleMs).toEqual([500, 2_000, 60_000]);
  });

  it.each([
    ['DOMAIN_RECHECK_SCHEDULE', '5m,1m'],
    ['DOMAIN_RECHECK_SCHEDULE', '1m,1m'],
    ['DOMAIN_RECHECK_SCHEDULE', '0s,1m'],
    ['DOMAIN_RECHECK_SCHEDULE', '1m,,5m'],
    ['DOMAIN_RECHECK_SCHEDULE', 'soon'],
    ['DOMAIN_RECHECK_INTERVAL', '0s'],
    ['DOMAIN_RECHECK_INTERVAL', 'daily'],
    ['DOMAIN_RECHECK_CONCURRENCY', '0'],
    ['DOMAIN_RECHECK_CONCURRENCY', '1000'],
  ])('refuses %s=%s, naming it', (name, value) => {
    expect(() => loadConfig(DomainsConfig, { [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig(DomainsConfig, { [name]: value })).toThrow(new RegExp(`^Invalid configuration: ${name} `));
  });
});

const realHosts = { MAIL_MX_HOST: 'mx.mailer.test', MAIL_SPF_INCLUDE: 'spf.mailer.test', MAIL_DKIM_DOMAIN: 'dkim.mailer.test' };

describe('DomainsConfig mail hosts', () => {
  it('defaults to the example.net placeholders outside production', () => {
    expect(loadConfig(DomainsConfig, { NODE_ENV: 'development' })).toEqual(expect.objectContaining(DEVELOPMENT_MAIL_HOSTS));
  });

  it.each(Object.keys(realHosts))('refuses to start in production while %s is the placeholder, naming it', (variable) => {
    const env = { NODE_ENV: 'production', SECRET_ENCRYPTION_KEY: '', ...realHosts, [variable]: '' };
    expect(() => loadConfig(DomainsConfig, env)).toThrow(new RegExp(`^Invalid configuration: ${variable} must be set when NODE_ENV=production`));
  });

  it('starts in production with the provider hosts', () => {
    expect(loadConfig(DomainsConfig, { NODE_ENV: 'production', ...realHosts })).toEqual(expect.objectContaining(realHosts));
  });
});
