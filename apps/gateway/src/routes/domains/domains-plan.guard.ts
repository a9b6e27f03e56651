import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { DOMAINS_ADDON, DOMAINS_MIN_PLAN, hasDomainsPlan } from '@contracts';
import { AppError, ErrorCode } from '@platform/errors';
import type { FastifyRequest } from 'fastify';

/**
 * Domains are a paid feature. Checked as a guard, after authentication and scope but before any input
 * validation or id lookup, so an organization without the plan learns only that it needs the plan.
 */
@Injectable()
export class DomainsPlanGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (request.auth && hasDomainsPlan(request.auth.org)) return true;
    throw new AppError(
      ErrorCode.PlanRequired,
      `Custom domains need a plan of ${DOMAINS_MIN_PLAN} USD per month or more, or the ${DOMAINS_ADDON} add-on`,
    );
  }
}
