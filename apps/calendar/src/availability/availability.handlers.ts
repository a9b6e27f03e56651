import { Injectable } from '@nestjs/common';
import { AvailabilitySchedules, AvailabilityWindows, CalendarOperations, OperationInput, ServiceResult } from '@contracts';
import { Handles, ServiceCaller } from '@platform/messaging';
import { parseAvailability } from './availability-input';
import { AvailabilityRepository } from './availability.repository';
import { openWindows } from './open-windows';
import { parseWindowsQuery } from './windows-query';

@Injectable()
export class AvailabilityHandlers {
  constructor(private readonly availability: AvailabilityRepository) {}

  @Handles(CalendarOperations.replaceAvailability)
  async replace(input: OperationInput<typeof CalendarOperations.replaceAvailability>, { org }: ServiceCaller): Promise<ServiceResult<AvailabilitySchedules>> {
    return { data: await this.availability.replace(org.id, parseAvailability(input)) };
  }

  @Handles(CalendarOperations.getAvailability)
  async get(_input: unknown, { org }: ServiceCaller): Promise<ServiceResult<AvailabilitySchedules>> {
    return { data: await this.availability.read(org.id) };
  }

  @Handles(CalendarOperations.availabilityWindows)
  async windows(input: OperationInput<typeof CalendarOperations.availabilityWindows>, { org }: ServiceCaller): Promise<ServiceResult<AvailabilityWindows>> {
    const request = parseWindowsQuery(input);
    const { schedules, overrides, timezone } = await this.availability.read(org.id);
    return { data: { windows: openWindows(schedules, overrides, timezone, request) } };
  }
}
