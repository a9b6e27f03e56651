export * from './logger';
export * from './logging.module';
export * from './service-logger';
