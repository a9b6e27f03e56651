export { ApiError, createApiClient } from './client';
export type { ApiClient, ApiClientOptions, ErrorResponse, Schema } from './client';
export { allRows } from './rows';
export type { AllRowsQuery } from './rows';
export { verifyWebhook, WebhookVerificationError } from './verify-webhook';
export type { WebhookHeaders, WebhookPayload } from './verify-webhook';
export type { components, operations, paths } from './api-types';
