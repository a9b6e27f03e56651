export * from './free-port';
export * from './stack-state';
export * from './api-client';
export * from './admin-cli';
export * from './extra-process';
export * from './eventually';
export * from './openapi-validate';
