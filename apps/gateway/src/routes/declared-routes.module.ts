import { Module } from '@nestjs/common';
import { API_OPERATIONS } from '@contracts';
import { declaredRoutes } from './declared-routes';
import { PlanGateGuard } from './plan-gate.guard';

/** The HTTP routes of every declared operation, forwarded to the owning services over NATS. */
@Module({ controllers: [declaredRoutes('DeclaredRoutes', API_OPERATIONS)], providers: [PlanGateGuard] })
export class DeclaredRoutesModule {}
