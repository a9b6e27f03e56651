export * from './error-code';
export * from './app-error';
export * from './validation-errors';
export * from './validate-input';
export * from './storable-json';
