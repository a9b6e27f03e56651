export * from './load-config';
export * from './durations';
export * from './validators';
export * from './base.config';
