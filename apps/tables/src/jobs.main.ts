import 'reflect-metadata';
import { loadConfig } from '@platform/config';
import { bootstrapService, runMain } from '@platform/service';
import { TablesJobsConfig } from './jobs/tables-jobs.config';
import { TablesJobsModule } from './jobs/tables-jobs.module';

runMain('tables-jobs', async () => {
  const config = loadConfig(TablesJobsConfig);
  await bootstrapService({ name: 'tables-jobs', module: TablesJobsModule.forRoot(config), config });
});
