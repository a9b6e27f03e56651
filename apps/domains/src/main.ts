import 'reflect-metadata';
import { loadConfig } from '@platform/config';
import { bootstrapService, runMain } from '@platform/service';
import { DomainsConfig } from './domains.config';
import { DomainsModule } from './domains.module';

runMain('domains', async () => {
  const config = loadConfig(DomainsConfig);
  await bootstrapService({ name: 'domains', module: DomainsModule.forRoot(config), config, queue: 'domains' });
});
