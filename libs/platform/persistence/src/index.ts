export * from './data-source-options';
export * from './migrate';
export * from './outbox';
