export * from './nats-connection';
export * from './events-stream';
export * from './outbox-relay';
export * from './service-reply.interceptor';
export * from './service-payload';
export * from './request-scope.interceptor';
export * from './service-request';
