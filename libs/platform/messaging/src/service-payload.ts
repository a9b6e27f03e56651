import { Payload } from '@nestjs/microservices';

/**
 * The parts of a ServiceRequest a handler takes. Typed with its contract class, `@Params()` is checked by
 * the validation pipe every service runs; the organization is the gateway's, from the authenticated key.
 */
export const Params = () => Payload('params');
export const Org = () => Payload('org');
/** The gateway's request id, for logs of work a handler hands on. */
export const RequestId = () => Payload('requestId');
