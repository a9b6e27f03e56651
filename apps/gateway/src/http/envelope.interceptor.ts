import { applyDecorators, CallHandler, ExecutionContext, Injectable, NestInterceptor, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiExtension } from '@nestjs/swagger';
import type { ServiceResult } from '@contracts';
import { map, Observable } from 'rxjs';

const BARE_DATA = 'envelope:bare-data';

/** The route answers its data as is, without the success envelope (the availability update); the OpenAPI document says so too. */
export const BareData = () => applyDecorators(SetMetadata(BARE_DATA, true), ApiExtension('x-bare-response', true));

@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler<ServiceResult>): Observable<unknown> {
    const bare = this.reflector.get<boolean>(BARE_DATA, context.getHandler());
    return next.handle().pipe(map((result) => (bare ? result.data : { success: true, ...result })));
  }
}
