import { ServiceConfig } from '@platform/config';

export class TablesConfig extends ServiceConfig {
  override HEALTH_PORT = 9101;
}
