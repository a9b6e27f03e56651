import { applyDecorators, CanActivate, createParamDecorator, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiExtension } from '@nestjs/swagger';
import { grants, Scope } from '@contracts';
import { AppError, ErrorCode } from '@platform/errors';
import type { FastifyRequest } from 'fastify';

const REQUIRED_SCOPE = 'auth:required-scope';

/** The OpenAPI document names the scope too, and lists only routes that carry one. */
export const RequireScope = (scope: Scope) => applyDecorators(SetMetadata(REQUIRED_SCOPE, scope), ApiExtension('x-required-scope', scope));

/** Every route names the scope it needs; a route that names none is refused rather than left open. */
@Injectable()
export class ScopeGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const scope = this.reflector.get<Scope | undefined>(REQUIRED_SCOPE, context.getHandler());
    if (!request.auth) throw new AppError(ErrorCode.Unauthorized, 'Missing API key');
    if (!scope || !grants(request.auth.scopes, scope)) {
      throw new AppError(ErrorCode.Forbidden, scope ? `This API key lacks the ${scope} scope` : 'Forbidden');
    }
    return true;
  }
}

/** The organization and request id, to hand to the service bus. */
export const CallerOf = createParamDecorator((_: unknown, context: ExecutionContext) => {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  return { org: (request.auth as NonNullable<FastifyRequest['auth']>).org, requestId: String(request.id) };
});
