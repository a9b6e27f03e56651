import { Body, Controller, Get, HttpCode, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AvailabilitySchedules, CalendarPatterns, ReplaceAvailabilityBody } from '@contracts';
import { CallerOf, RequireScope } from '../../auth/require-scope';
import { Caller, ServiceBus } from '../../bus/service-bus';
import { BareData } from '../../http/envelope.interceptor';
import { ApiData } from '../../openapi/api-data.decorator';

/** Both answers are `{schedules}` without the success envelope, as the interface asks of the update. */
@ApiTags('calendar')
@ApiBearerAuth()
@Controller('calendar/availability')
export class AvailabilityController {
  constructor(private readonly bus: ServiceBus) {}

  @Put()
  @HttpCode(200)
  @BareData()
  @RequireScope('calendar:write')
  @ApiOperation({ summary: 'Replace the whole weekly availability' })
  @ApiData(AvailabilitySchedules)
  replace(@CallerOf() caller: Caller, @Body() body: ReplaceAvailabilityBody) {
    return this.bus.send<AvailabilitySchedules>(CalendarPatterns.replaceAvailability, caller, body);
  }

  @Get()
  @BareData()
  @RequireScope('calendar:read')
  @ApiOperation({ summary: 'Read the weekly availability' })
  @ApiData(AvailabilitySchedules)
  get(@CallerOf() caller: Caller) {
    return this.bus.send<AvailabilitySchedules>(CalendarPatterns.getAvailability, caller);
  }
}
