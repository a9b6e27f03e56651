export * from './logger';
export * from './logging.module';
