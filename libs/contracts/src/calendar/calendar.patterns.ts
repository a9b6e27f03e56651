/** NATS request-reply subjects of the calendar service. */
export const CalendarPatterns = {
  replaceAvailability: 'calendar.availability.replace',
  getAvailability: 'calendar.availability.get',
  availabilityWindows: 'calendar.availability.windows',
} as const;
