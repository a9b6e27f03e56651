import { ServiceConfig } from '@platform/config';

export class CalendarConfig extends ServiceConfig {
  override HEALTH_PORT = 7106;
}
