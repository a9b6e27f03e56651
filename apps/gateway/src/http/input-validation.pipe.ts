import { ArgumentMetadata, Injectable, ValidationPipe } from '@nestjs/common';
import { AppError, validationErrorFrom } from '@platform/errors';

/** Bodies and queries are checked against their contract classes; unknown properties are refused by name. */
@Injectable()
export class InputValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      forbidUnknownValues: false,
      validationError: { target: false, value: false },
      exceptionFactory: (errors) => validationErrorFrom(errors),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' && metadata.metatype && metadata.metatype !== Object) {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        throw AppError.validation('body', 'must be a JSON object');
      }
    }
    return super.transform(value, metadata);
  }
}
