import { IsOptional, IsString } from 'class-validator';
import { commaList, IsCidrList, IsIntBetween, RedisServiceConfig } from '@platform/config';

export class GatewayConfig extends RedisServiceConfig {
  @IsIntBetween(0, 65535)
  PORT = 3000;

  override HEALTH_PORT = 7100;

  @IsIntBetween(1, 1_000_000)
  RATE_LIMIT_PER_MINUTE = 600;

  @IsIntBetween(100, 120_000)
  NATS_REQUEST_TIMEOUT_MS = 10_000;

  /**
   * How long a read (or a write safe to send twice) waits for an answer before the gateway sends it again:
   * longer than the slowest ordinary answer, short beside the deadline. 0 sends every call once.
   */
  @IsIntBetween(0, 120_000)
  NATS_RESEND_AFTER_MS = 3_000;

  @IsIntBetween(0, 600_000)
  API_KEY_CACHE_TTL_MS = 10_000;

  /** How long a client has, once its headers are in, to send the whole body; a slower one gets a 400 and is disconnected. */
  @IsIntBetween(1_000, 600_000)
  REQUEST_BODY_TIMEOUT_MS = 60_000;

  /**
   * Load balancers and proxies whose `X-Forwarded-For` is believed (comma list of CIDRs). Empty: none,
   * the client address is the connection's, so no header can pick another per-address rate limit.
   */
  @IsCidrList()
  TRUSTED_PROXIES = '';

  @IsOptional()
  @IsString()
  TLS_CERT_FILE = '';

  @IsOptional()
  @IsString()
  TLS_KEY_FILE = '';

  get trustedProxies(): string[] {
    return commaList(this.TRUSTED_PROXIES);
  }
}
