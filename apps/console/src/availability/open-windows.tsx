import { useSession } from '../session-context';
import { ErrorNote } from '../ui/feedback';
import { useLoad } from '../ui/hooks';
import { addDays, dateIn } from './availability-drafts';

const DAYS_SHOWN = 14;

/** The open windows from today (in the schedule's zone) for 14 days, grouped by date, in that zone's wall-clock time. */
export function OpenWindows({ timezone }: { timezone: string }) {
  const { api } = useSession();
  const from = dateIn(timezone, new Date());
  const to = addDays(from, DAYS_SHOWN - 1);
  const windows = useLoad(() => api.GET('/calendar/availability/windows', { params: { query: { from, to } } }).then((answer) => answer.windows), `${from}:${timezone}`);
  const time = new Intl.DateTimeFormat(undefined, { timeZone: timezone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  const byDate = new Map<string, string[]>();
  for (const window of windows.data ?? []) {
    const date = dateIn(timezone, new Date(window.start));
    byDate.set(date, [...(byDate.get(date) ?? []), `${time.format(new Date(window.start))}–${time.format(new Date(window.end))}`]);
  }
  return (
    <section className="card" aria-labelledby="windows-title">
      <h2 id="windows-title">
        Open windows, {from} to {to} ({timezone})
      </h2>
      <ErrorNote error={windows.error} />
      {windows.data ? (
        <dl className="windows">
          {Array.from({ length: DAYS_SHOWN }, (_, i) => addDays(from, i)).map((date) => (
            <div key={date}>
              <dt>{new Date(`${date}T12:00:00Z`).toLocaleDateString(undefined, { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' })}</dt>
              <dd>{byDate.get(date)?.join(', ') ?? 'closed'}</dd>
            </div>
          ))}
        </dl>
      ) : null}
    </section>
  );
}
