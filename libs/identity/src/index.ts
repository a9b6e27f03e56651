export * from './api-key-secret';
export * from './identity-schema';
export * from './identity.store';
