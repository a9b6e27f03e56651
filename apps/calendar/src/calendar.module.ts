import { DynamicModule, Module } from '@nestjs/common';
import { ServiceCoreModule } from '@platform/service';
import { AvailabilityModule } from './availability/availability.module';
import { CalendarConfig } from './calendar.config';

@Module({})
export class CalendarModule {
  static forRoot(config: CalendarConfig): DynamicModule {
    return {
      module: CalendarModule,
      imports: [ServiceCoreModule.forRoot({ name: 'calendar', config, database: true }), AvailabilityModule],
    };
  }
}
