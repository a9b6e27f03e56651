export * from './domains.operations';
export * from './domain.dto';
export * from './email-address.dto';
export * from './domain.types';
