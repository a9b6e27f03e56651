import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { NATIVE_TYPES, validateInput } from './validate-input';

/**
 * The one way input is checked, once, at the gateway (bodies and queries): against its contract class
 * from libs/contracts, refusing unknown properties by name, failing with the VALIDATION_ERROR that names
 * the first offending field. The services take what passed it. Parameters typed with an interface or a
 * primitive carry no class and pass through.
 */
@Injectable()
export class InputValidationPipe implements PipeTransform {
  transform(value: unknown, { metatype }: ArgumentMetadata): unknown {
    if (!metatype || NATIVE_TYPES.has(metatype)) return value;
    return validateInput(metatype as new () => object, value);
  }
}
