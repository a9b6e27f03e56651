import { Body, Controller, Get, HttpCode, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AvailabilitySchedules, AvailabilityWindows, AvailabilityWindowsQuery, CalendarPatterns, ReplaceAvailabilityBody } from '@contracts';
import { CallerOf, RequireScope } from '../../auth/require-scope';
import { Caller, ServiceBus } from '../../bus/service-bus';
import { BareData } from '../../http/envelope.interceptor';
import { ApiData } from '../../openapi/api-data.decorator';

/** Every answer is bare, without the success envelope, as the interface asks of the update. */
@ApiTags('calendar')
@ApiBearerAuth()
@Controller('calendar/availability')
export class AvailabilityController {
  constructor(private readonly bus: ServiceBus) {}

  @Put()
  @HttpCode(200)
  @BareData()
  @RequireScope('calendar:write')
  @ApiOperation({ operationId: 'replaceAvailability', summary: 'Replace the whole weekly availability' })
  @ApiData(AvailabilitySchedules)
  replace(@CallerOf() caller: Caller, @Body() body: ReplaceAvailabilityBody) {
    return this.bus.send<AvailabilitySchedules>(CalendarPatterns.replaceAvailability, caller, body);
  }

  @Get()
  @BareData()
  @RequireScope('calendar:read')
  @ApiOperation({ operationId: 'getAvailability', summary: 'Read the weekly availability' })
  @ApiData(AvailabilitySchedules)
  get(@CallerOf() caller: Caller) {
    return this.bus.send<AvailabilitySchedules>(CalendarPatterns.getAvailability, caller);
  }

  @Get('windows')
  @BareData()
  @RequireScope('calendar:read')
  @ApiOperation({ operationId: 'listAvailabilityWindows', summary: 'Open windows between two dates, in UTC, with the zone\'s daylight-saving changes and the overrides applied' })
  @ApiData(AvailabilityWindows)
  windows(@CallerOf() caller: Caller, @Query() query: AvailabilityWindowsQuery) {
    return this.bus.send<AvailabilityWindows>(CalendarPatterns.availabilityWindows, caller, {
      from: query.from,
      to: query.to,
      ...(query.appointment_type_id === undefined ? {} : { appointment_type_id: query.appointment_type_id }),
    });
  }
}
