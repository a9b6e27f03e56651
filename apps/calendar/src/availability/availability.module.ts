import { Module } from '@nestjs/common';
import { AvailabilityController } from './availability.controller';
import { AvailabilityRepository } from './availability.repository';

@Module({ controllers: [AvailabilityController], providers: [AvailabilityRepository] })
export class AvailabilityModule {}
