import type { Operation, OperationData, OperationInput, OrgContext, ServiceMessage, ServiceResult } from '@contracts';

/** Who a message comes from: the organization the gateway authenticated, and the request to log it under. */
export interface ServiceCaller {
  org: OrgContext;
  requestId: string;
  /** The same on every send of one call of the gateway (ServiceRequest.callId). */
  callId: string;
}

/** The one handler of a declared operation or service message in the service that owns it. */
export type OperationHandler<O> = (input: OperationInput<O>, caller: ServiceCaller) => Promise<ServiceResult<OperationData<O>>>;

/** A handler bound to its subject, ready to serve. */
export interface BoundHandler {
  subject: string;
  handle(input: unknown, caller: ServiceCaller): Promise<ServiceResult>;
}

const HANDLERS = Symbol('operation-handlers');

interface HandlerBinding {
  subject: string;
  method: string | symbol;
}

/**
 * Binds a method to a declared operation (or a message between services): the service answers its
 * subject with it. The method's input and answer are typed by the declaration, and its input arrives as
 * the edge (or the asking service) checked it.
 */
export function Handles<O extends Operation | ServiceMessage>(operation: O) {
  return (target: object, method: string | symbol, _descriptor: TypedPropertyDescriptor<OperationHandler<O>>): void => {
    const bindings: HandlerBinding[] = Reflect.getOwnMetadata(HANDLERS, target.constructor) ?? [];
    Reflect.defineMetadata(HANDLERS, [...bindings, { subject: operation.subject, method }], target.constructor);
  };
}

/** The handlers an object's class binds with `@Handles`. */
export function boundHandlers(instance: object): BoundHandler[] {
  const bindings: HandlerBinding[] = Reflect.getOwnMetadata(HANDLERS, instance.constructor) ?? [];
  return bindings.map(({ subject, method }) => {
    const handle = (instance as Record<string | symbol, BoundHandler['handle']>)[method].bind(instance);
    return { subject, handle };
  });
}
