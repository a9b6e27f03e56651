import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AvailabilitySchedules, CalendarPatterns, ServiceRequest, ServiceResult } from '@contracts';
import { parseWeeklySlots } from './availability-input';
import { AvailabilityRepository } from './availability.repository';

@Controller()
export class AvailabilityController {
  constructor(private readonly availability: AvailabilityRepository) {}

  @MessagePattern(CalendarPatterns.replaceAvailability)
  async replace(@Payload() request: ServiceRequest<unknown>): Promise<ServiceResult<AvailabilitySchedules>> {
    const slots = parseWeeklySlots(request.params);
    return { data: { schedules: await this.availability.replace(request.org.id, slots) } };
  }

  @MessagePattern(CalendarPatterns.getAvailability)
  async get(@Payload() request: ServiceRequest<unknown>): Promise<ServiceResult<AvailabilitySchedules>> {
    return { data: { schedules: await this.availability.list(request.org.id) } };
  }
}
