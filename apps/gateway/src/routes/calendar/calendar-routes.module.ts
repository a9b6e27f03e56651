import { Module } from '@nestjs/common';
import { AvailabilityController } from './availability.controller';

/** HTTP routes of the calendar context, forwarded to its service over NATS. */
@Module({ controllers: [AvailabilityController] })
export class CalendarRoutesModule {}
