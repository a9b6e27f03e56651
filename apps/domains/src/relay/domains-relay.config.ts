import { ServiceConfig } from '@platform/config';

export class DomainsRelayConfig extends ServiceConfig {
  override HEALTH_PORT = 7107;
}
