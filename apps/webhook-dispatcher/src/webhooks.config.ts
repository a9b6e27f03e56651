import { ServiceConfig } from '@platform/config';

export class WebhooksConfig extends ServiceConfig {
  override HEALTH_PORT = 9103;
}
