import { commaList, IsDuration, IsIntBetween, IsReplacedInProduction, parseDuration, parseDurationList, ServiceConfig } from '@platform/config';
import { IsDnsServerList, IsHostname, IsPositiveDuration, IsRecheckSchedule } from './domains-config.validators';

/** Where domains' records must point: development placeholders, which production must replace. */
export const DEVELOPMENT_MAIL_HOSTS = {
  MAIL_MX_HOST: 'mx.mail.example.net',
  MAIL_SPF_INCLUDE: 'spf.mail.example.net',
  MAIL_DKIM_DOMAIN: 'dkim.mail.example.net',
} as const;

export class DomainsConfig extends ServiceConfig {
  override HEALTH_PORT = 7105;

  /** Comma list of `ip` or `ip:port` to resolve through; empty means the system resolver. */
  @IsDnsServerList()
  DNS_SERVERS = '';

  /** The whole of one verification's lookups must finish within this; it stays below the gateway's NATS timeout. */
  @IsIntBetween(100, 8_000)
  DNS_LOOKUP_TIMEOUT_MS = 5_000;

  /** How long a domain may stay pending before verification marks it failed. */
  @IsDuration()
  DOMAIN_VERIFICATION_WINDOW = '72h';

  /** When pending domains are re-checked: these delays after creation, then every last one until the window ends. */
  @IsRecheckSchedule()
  DOMAIN_RECHECK_SCHEDULE = '1m,5m,15m,1h';

  /** How often an active domain's records are checked again. */
  @IsPositiveDuration()
  DOMAIN_RECHECK_INTERVAL = '24h';

  /** Checks one replica runs at once; a silent name server holds one slot for DNS_LOOKUP_TIMEOUT_MS at most. */
  @IsIntBetween(1, 200)
  DOMAIN_RECHECK_CONCURRENCY = 10;

  @IsHostname()
  @IsReplacedInProduction(DEVELOPMENT_MAIL_HOSTS.MAIL_MX_HOST)
  MAIL_MX_HOST: string = DEVELOPMENT_MAIL_HOSTS.MAIL_MX_HOST;

  @IsHostname()
  @IsReplacedInProduction(DEVELOPMENT_MAIL_HOSTS.MAIL_SPF_INCLUDE)
  MAIL_SPF_INCLUDE: string = DEVELOPMENT_MAIL_HOSTS.MAIL_SPF_INCLUDE;

  @IsHostname()
  @IsReplacedInProduction(DEVELOPMENT_MAIL_HOSTS.MAIL_DKIM_DOMAIN)
  MAIL_DKIM_DOMAIN: string = DEVELOPMENT_MAIL_HOSTS.MAIL_DKIM_DOMAIN;

  get dnsServers(): string[] {
    return commaList(this.DNS_SERVERS);
  }

  get verificationWindowMs(): number {
    return parseDuration(this.DOMAIN_VERIFICATION_WINDOW) as number;
  }

  get recheckScheduleMs(): number[] {
    return parseDurationList(this.DOMAIN_RECHECK_SCHEDULE) as number[];
  }

  get recheckIntervalMs(): number {
    return parseDuration(this.DOMAIN_RECHECK_INTERVAL) as number;
  }
}
