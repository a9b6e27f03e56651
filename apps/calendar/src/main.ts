import 'reflect-metadata';
import { loadConfig } from '@platform/config';
import { bootstrapService, runMain } from '@platform/service';
import { CalendarConfig } from './calendar.config';
import { CalendarModule } from './calendar.module';

runMain('calendar', async () => {
  const config = loadConfig(CalendarConfig);
  await bootstrapService({ name: 'calendar', module: CalendarModule.forRoot(config), config, queue: 'calendar' });
});
