import { Injectable, PipeTransform } from '@nestjs/common';
import { AppError } from '@platform/errors';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are UUIDs; anything else names no resource, so it is a 404 rather than a 400. */
@Injectable()
export class ResourceIdPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!UUID.test(value)) throw AppError.notFound();
    return value.toLowerCase();
  }
}
