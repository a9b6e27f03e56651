import { Module } from '@nestjs/common';

/** HTTP routes of the calendar context, forwarded to its service over NATS. */
@Module({ controllers: [] })
export class CalendarRoutesModule {}
