import 'reflect-metadata';
import { loadConfig } from '@platform/config';
import { bootstrapService, runMain } from '@platform/service';
import { TablesRelayConfig } from './relay/tables-relay.config';
import { TablesRelayModule } from './relay/tables-relay.module';

runMain('tables-relay', async () => {
  const config = loadConfig(TablesRelayConfig);
  await bootstrapService({ name: 'tables-relay', module: TablesRelayModule.forRoot(config), config });
});
