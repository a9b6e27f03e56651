import 'reflect-metadata';
import { loadConfig } from '@platform/config';
import { bootstrapService, runMain } from '@platform/service';
import { TablesConfig } from './tables.config';
import { TablesModule } from './tables.module';

runMain('tables', async () => {
  const config = loadConfig(TablesConfig);
  await bootstrapService({ name: 'tables', module: TablesModule.forRoot(config), config, queue: 'tables' });
});
