import { IsInt, Max, Min } from 'class-validator';
import { IsDuration, parseDuration, ServiceConfig } from '@platform/config';
import { IsDnsServerList, IsHostname } from './dns-config.validators';

export class DomainsConfig extends ServiceConfig {
  override HEALTH_PORT = 9105;

  /** Comma list of `ip` or `ip:port` to resolve through; empty means the system resolver. */
  @IsDnsServerList()
  DNS_SERVERS = '';

  /** The whole of one verification's lookups must finish within this; it stays below the gateway's NATS timeout. */
  @IsInt()
  @Min(100)
  @Max(8_000)
  DNS_LOOKUP_TIMEOUT_MS = 5_000;

  /** How long a domain may stay pending before verification marks it failed. */
  @IsDuration()
  DOMAIN_VERIFICATION_WINDOW = '72h';

  @IsHostname()
  MAIL_MX_HOST = 'mx.mail.example.net';

  @IsHostname()
  MAIL_SPF_INCLUDE = 'spf.mail.example.net';

  @IsHostname()
  MAIL_DKIM_DOMAIN = 'dkim.mail.example.net';

  get dnsServers(): string[] {
    return this.DNS_SERVERS.split(',').map((part) => part.trim()).filter(Boolean);
  }

  get verificationWindowMs(): number {
    return parseDuration(this.DOMAIN_VERIFICATION_WINDOW) as number;
  }
}
