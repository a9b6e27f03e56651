import { Global, Module } from '@nestjs/common';
import { ServiceBus } from './service-bus';

@Global()
@Module({ providers: [ServiceBus], exports: [ServiceBus] })
export class BusModule {}
