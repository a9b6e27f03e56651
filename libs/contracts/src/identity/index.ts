export * from './cache-invalidation';
