/**
 * The plain part of the contracts: ids, scopes, event kinds and subjects, the error body, the service message
 * and its JSON data. No decorator and no schema library, so that what only needs these words (the platform
 * libraries, the admin command) loads them without the DTOs and the OpenAPI machinery (`@contracts/vocabulary`).
 */
export * from './ids';
export * from './scopes';
export * from './event-kinds';
export * from './error-body';
export * from './service-request';
export * from './json-data';
export * from './identity';
