import { ServiceConfig } from '@platform/config';

export class DomainsConfig extends ServiceConfig {
  override HEALTH_PORT = 9105;
}
