import 'reflect-metadata';
import { loadConfig } from '@platform/config';
import { bootstrapService, runMain } from '@platform/service';
import { DomainsRelayConfig } from './relay/domains-relay.config';
import { DomainsRelayModule } from './relay/domains-relay.module';

runMain('domains-relay', async () => {
  const config = loadConfig(DomainsRelayConfig);
  await bootstrapService({ name: 'domains-relay', module: DomainsRelayModule.forRoot(config), config });
});
