import { Module } from '@nestjs/common';

/** HTTP routes of the tables context, forwarded to its service over NATS. */
@Module({ controllers: [] })
export class TablesRoutesModule {}
