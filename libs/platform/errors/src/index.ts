export * from './error-code';
export * from './app-error';
export * from './validation-errors';
export * from './validate-input';
export * from './input-validation.pipe';
export * from './storable-json';
