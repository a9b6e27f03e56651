import { ServiceConfig } from '@platform/config';

export class TablesRelayConfig extends ServiceConfig {
  override HEALTH_PORT = 7102;
}
