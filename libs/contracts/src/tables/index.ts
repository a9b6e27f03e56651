export * from './tables.patterns';
export * from './field-types';
export * from './table.dto';
export * from './row.dto';
export * from './table.views';
export * from './tables.messages';
export * from './upload.dto';
export * from './import.dto';
