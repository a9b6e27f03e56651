import { Global, Module } from '@nestjs/common';
import { ClientProxyFactory, Transport } from '@nestjs/microservices';
import { natsClientOptions } from '@platform/messaging';
import { GatewayConfig } from '../gateway.config';
import { SERVICES_CLIENT, ServiceBus } from './service-bus';

@Global()
@Module({
  providers: [
    {
      provide: SERVICES_CLIENT,
      inject: [GatewayConfig],
      useFactory: (config: GatewayConfig) =>
        ClientProxyFactory.create({ transport: Transport.NATS, options: natsClientOptions(config.NATS_URL, 'gateway-rpc') }),
    },
    ServiceBus,
  ],
  exports: [ServiceBus],
})
export class BusModule {}
