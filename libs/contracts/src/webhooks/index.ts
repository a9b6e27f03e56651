export * from './webhooks.operations';
export * from './webhook-views';
export * from './webhook-headers';
export * from './webhook-signature';
export * from './webhook-url.validator';
export * from './webhook.dto';
export * from './webhook-payloads';
export * from './event-types';
