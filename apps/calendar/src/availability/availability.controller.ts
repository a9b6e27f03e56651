import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import {
  AvailabilitySchedules,
  AvailabilityWindows,
  AvailabilityWindowsQuery,
  CalendarPatterns,
  OrgContext,
  ReplaceAvailabilityBody,
  ServiceResult,
} from '@contracts';
import { Org, Params } from '@platform/messaging';
import { parseAvailability } from './availability-input';
import { AvailabilityRepository } from './availability.repository';
import { openWindows } from './open-windows';
import { parseWindowsQuery } from './windows-query';

@Controller()
export class AvailabilityController {
  constructor(private readonly availability: AvailabilityRepository) {}

  @MessagePattern(CalendarPatterns.replaceAvailability)
  async replace(@Org() org: OrgContext, @Params() params: ReplaceAvailabilityBody): Promise<ServiceResult<AvailabilitySchedules>> {
    return { data: await this.availability.replace(org.id, parseAvailability(params)) };
  }

  @MessagePattern(CalendarPatterns.getAvailability)
  async get(@Org() org: OrgContext): Promise<ServiceResult<AvailabilitySchedules>> {
    return { data: await this.availability.read(org.id) };
  }

  @MessagePattern(CalendarPatterns.availabilityWindows)
  async windows(@Org() org: OrgContext, @Params() params: AvailabilityWindowsQuery): Promise<ServiceResult<AvailabilityWindows>> {
    const request = parseWindowsQuery(params);
    const { schedules, overrides, timezone } = await this.availability.read(org.id);
    return { data: { windows: openWindows(schedules, overrides, timezone, request) } };
  }
}
