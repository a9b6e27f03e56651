export * from './calendar-values';
export * from './filter-ast';
export * from './filter-parser';
