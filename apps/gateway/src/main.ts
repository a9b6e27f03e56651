import 'reflect-metadata';
import { loadConfig } from '@platform/config';
import { bootstrapService, runMain } from '@platform/service';
import { GatewayConfig } from './gateway.config';
import { GatewayModule } from './gateway.module';
import { createHttpAdapter } from './http/fastify-server';
import { configurePublicApi } from './http/public-api';

runMain('gateway', async () => {
  const config = loadConfig(GatewayConfig);
  await bootstrapService({
    name: 'gateway',
    module: GatewayModule.forRoot(config),
    config,
    http: { port: config.PORT, adapter: createHttpAdapter(config), options: { bodyParser: false }, configure: configurePublicApi },
  });
});
