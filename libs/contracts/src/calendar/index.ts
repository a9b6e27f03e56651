export * from './calendar.patterns';
export * from './availability.dto';
export * from './availability.response';
