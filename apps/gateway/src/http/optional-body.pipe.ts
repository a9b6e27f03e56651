import { Injectable, PipeTransform } from '@nestjs/common';
import { validateInput } from '@platform/errors';

/**
 * A body the route may go without (no body at all reads as `{}`), checked like any other when present.
 * The route declares its parameter with a union type so the global pipe leaves it to this one.
 */
@Injectable()
export class OptionalBodyPipe<T extends object> implements PipeTransform<unknown, T> {
  constructor(private readonly type: new () => T) {}

  transform(value: unknown): T {
    if (value === undefined || value === null || value === '') return new this.type();
    return validateInput(this.type, value);
  }
}
