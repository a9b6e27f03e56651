export * from './domains.patterns';
export * from './domain.dto';
export * from './email-address.dto';
export * from './domain.types';
