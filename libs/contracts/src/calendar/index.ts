export * from './calendar.operations';
export * from './availability.dto';
export * from './availability.response';
