import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { PlanGate } from '@contracts';
import { AppError, ErrorCode } from '@platform/errors';
import type { FastifyRequest } from 'fastify';

const PLAN_GATE = 'routes:plan-gate';

export const GatedBy = (gate: PlanGate) => SetMetadata(PLAN_GATE, gate);

/**
 * A paid feature's operations. Checked as a guard, after authentication and scope but before any input
 * validation or id lookup, so an organization without the plan learns only that it needs the plan.
 */
@Injectable()
export class PlanGateGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const gate = this.reflector.get<PlanGate | undefined>(PLAN_GATE, context.getHandler());
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (!gate || (request.auth && gate.allows(request.auth.org))) return true;
    throw new AppError(ErrorCode.PlanRequired, gate.message);
  }
}
