import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import type { OrgContext } from './service-request';
import type { Scope } from './scopes';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A contract class: its decorators are the validation at the edge and the schema in the OpenAPI document. */
export type ContractClass<T = object> = new () => T;

/** A feature an organization's plan must include, checked before any input is read. */
export interface PlanGate {
  allows(org: OrgContext): boolean;
  /** Why the organization is refused (PLAN_REQUIRED). */
  message: string;
}

/**
 * Everything about one endpoint, in one place: the gateway routes, checks and documents it from this, and
 * the owning service answers `subject` with the one handler bound to it. Path parameters are resource ids
 * (UUIDs, a 404 otherwise) and reach the handler camel-cased: `:table_id` is `tableId`.
 */
export type Answer = ContractClass | readonly [ContractClass] | 'message';

export type SuccessStatus = 200 | 201 | 202;

/**
 * A second success an operation answers when its checked input asks for it, with its own status and
 * members beside `data` (a batch create with `upsert_on` answers 200 and `actions`, where it creates with 201).
 */
export interface InputStatus<Input> {
  /** Decided by the gateway on the checked input. */
  when(input: Input): boolean;
  status: SuccessStatus;
  /** When this answer comes, as the OpenAPI document says it. */
  description: string;
  /** The envelope's members beside `data` in this answer, each always present. */
  alongside?: Record<string, SchemaObject>;
}

export interface OperationSpec<Path extends string, Query, Body, Answers extends Answer | undefined> {
  /** OpenAPI operationId; also the SDK's name for the call. */
  operationId: string;
  summary: string;
  description?: string;
  /** The OpenAPI tag it is listed under. */
  tag: string;
  method: HttpMethod;
  /** Below /v1, with `:name` parameters. */
  path: Path;
  scope: Scope;
  /** The NATS subject the owning service answers. */
  subject: string;
  /** 200 unless given. */
  status?: SuccessStatus;
  /** Another status the input may ask for. */
  inputStatus?: InputStatus<PathParams<Path> & Query & Body>;
  query?: ContractClass<Query>;
  body?: ContractClass<Body>;
  /** The body may be left out (it then reads as `{}`). */
  optionalBody?: boolean;
  /**
   * What `data` holds: one item, `[Item]` for a list that is not paged, or `'message'` for an answer that
   * only says what happened. A query with `page` makes it a paged list of the item. Left out on a DELETE,
   * the answer is a message.
   */
  answers?: Answers;
  /** The answer is `data` itself, without the success envelope (the availability routes). */
  bare?: boolean;
  gate?: PlanGate;
  /** How long the gateway waits for the service, when the operation waits on the outside world by design. */
  timeoutMs?: number;
  /**
   * The gateway may send the call again under the same call id when the first send goes unanswered (its
   * message or the service that took it was lost with a host): true of every read, and of a write that
   * commits at most once per call id. Other writes are sent once: a lost one answers 500 at its deadline.
   */
  resendable?: boolean;
}

/** A declared operation; its type parameters carry the handler's input and answer to both sides. */
export type Operation<Path extends string = string, Query = unknown, Body = unknown, Answers extends Answer | undefined = Answer | undefined> = Readonly<
  OperationSpec<Path, Query, Body, Answers>
>;

/** Whether the gateway may send an operation's call twice: reads, and the writes declared so. */
export function isResendable(operation: Pick<OperationSpec<string, unknown, unknown, Answer | undefined>, 'method' | 'resendable'>): boolean {
  return operation.resendable ?? operation.method === 'GET';
}

/** Declares an operation; the literal path and the classes are kept in its type. */
export function operation<const Path extends string, Query = unknown, Body = unknown, const Answers extends Answer | undefined = undefined>(
  spec: OperationSpec<Path, Query, Body, Answers>,
): Operation<Path, Query, Body, Answers> {
  return spec;
}

type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;

/** `tables/:table_id/rows/:row_id` -> `{ tableId: string; rowId: string }`. */
export type PathParams<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? { [K in CamelCase<Name>]: string } & PathParams<Rest>
  : Path extends `${string}:${infer Name}`
    ? { [K in CamelCase<Name>]: string }
    : unknown;

/** The name a path parameter has in the handler's input: `table_id` -> `tableId`. */
export function pathParamKey(name: string): string {
  return name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/** The names of a path's parameters, in order: `tables/:table_id/rows` -> `['table_id']`. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/:([a-z_]+)/g)].map((match) => match[1]);
}

declare const carries: unique symbol;

/**
 * A question one service asks another inside the system, never routed from HTTP: the subject the owning
 * service answers, and in its type the input and the answer's `data`. The asking service checked what it
 * sends (it came through the edge, or from its own store), so the owner trusts it as it trusts the gateway.
 */
export interface ServiceMessage<Input = unknown, Answer = unknown> {
  readonly subject: string;
  /** What it asks, for the reader of the contract. */
  readonly summary: string;
  readonly [carries]?: { input: Input; answer: Answer };
}

/** Declares a message between services; its types are given, as it has no classes to check at an edge. */
export function serviceMessage<Input extends object, Answer>(spec: { subject: string; summary: string }): ServiceMessage<Input, Answer> {
  return spec;
}

/** What the owning service's handler receives: the path's ids, then the query's and the body's properties; a message's input. */
export type OperationInput<O> =
  O extends Operation<infer Path, infer Query, infer Body> ? PathParams<Path> & Query & Body : O extends ServiceMessage<infer Input> ? Input : never;

/**
 * What the handler answers in `data`: the item, a list of items for paged (a query with `page`) and list
 * operations, nothing for a message; a service message's answer.
 */
export type OperationData<O> =
  O extends Operation<string, infer Query, unknown, infer Answers>
    ? Answers extends readonly [ContractClass<infer Item>]
      ? Item[]
      : Answers extends ContractClass<infer Item>
        ? 'page' extends keyof Query
          ? Item[]
          : Item
        : never
    : O extends ServiceMessage<unknown, infer Answer>
      ? Answer
      : never;
