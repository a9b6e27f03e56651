import { TablesConfig } from '../tables.config';

/** The job process reads the same storage and limits as the service. */
export class TablesJobsConfig extends TablesConfig {
  override HEALTH_PORT = 7108;
}
