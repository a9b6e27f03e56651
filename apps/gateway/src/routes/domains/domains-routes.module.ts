import { Module } from '@nestjs/common';

/** HTTP routes of the domains context, forwarded to its service over NATS. */
@Module({ controllers: [] })
export class DomainsRoutesModule {}
