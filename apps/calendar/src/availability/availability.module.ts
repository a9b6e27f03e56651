import { Module } from '@nestjs/common';
import { AvailabilityHandlers } from './availability.handlers';
import { AvailabilityRepository } from './availability.repository';

@Module({ providers: [AvailabilityHandlers, AvailabilityRepository] })
export class AvailabilityModule {}
