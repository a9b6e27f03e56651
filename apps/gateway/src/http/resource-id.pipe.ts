import { Injectable, PipeTransform } from '@nestjs/common';
import { isUuid } from '@contracts';
import { AppError } from '@platform/errors';

/** Ids are UUIDs; anything else names no resource, so it is a 404 rather than a 400. */
@Injectable()
export class ResourceIdPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!isUuid(value)) throw AppError.notFound();
    return value.toLowerCase();
  }
}
