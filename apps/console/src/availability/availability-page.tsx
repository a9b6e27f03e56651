import type { Schema } from '@org-data-platform/sdk';
import { useEffect, useState } from 'react';
import { useSession } from '../session-context';
import { submitting } from '../ui/action-form';
import { ErrorNote, Outcome } from '../ui/feedback';
import { useAction, useLoad } from '../ui/hooks';
import { bodyOf, DAYS, draftsOf, nextKey, type OverrideDraft, type SlotDraft, timeZones } from './availability-drafts';
import { OpenWindows } from './open-windows';

/** The weekly hours in a time zone, date overrides, and the open windows they give for the next 14 days. */
export function AvailabilityPage() {
  const { api, access } = useSession();
  // Windows are read again after each save; the editor keeps its state (and its feedback).
  const [saves, setSaves] = useState(0);
  const [zone, setZone] = useState<string | undefined>();
  const stored = useLoad(() => api.GET('/calendar/availability'), 'availability');
  return (
    <section>
      <h1>Availability</h1>
      <ErrorNote error={stored.error} />
      {stored.data ? <Editor stored={stored.data} writable={access.calendar.write} onSaved={(timezone) => {
            setSaves((n) => n + 1);
            setZone(timezone);
          }} /> : stored.loading ? <p role="status">Loading…</p> : null}
      {stored.data ? <OpenWindows key={`windows-${saves}`} timezone={zone ?? stored.data.timezone ?? 'UTC'} /> : null}
    </section>
  );
}

function Editor({ stored, writable, onSaved }: { stored: Schema<'AvailabilitySchedules'>; writable: boolean; onSaved(timezone: string): void }) {
  const { api } = useSession();
  const [timezone, setTimezone] = useState(stored.timezone ?? 'UTC');
  const [slots, setSlots] = useState<SlotDraft[]>(() => draftsOf(stored).slots);
  const [overrides, setOverrides] = useState<OverrideDraft[]>(() => draftsOf(stored).overrides);
  const [zones, setZones] = useState<string[]>([]);
  useEffect(() => setZones(timeZones()), []);
  const save = useAction(
    async () => {
      const saved = await api.PUT('/calendar/availability', { body: bodyOf(timezone, slots, overrides) });
      onSaved(saved.timezone ?? timezone);
    },
    () => 'Saved',
  );
  const submit = submitting(save.run);
  // An error naming schedules[i] or overrides[i] is shown beside that line.
  const at = (list: 'schedules' | 'overrides', index: number) =>
    save.error?.field?.startsWith(`${list}[${index}]`) ? <ErrorNote error={save.error} /> : null;
  const placed = /^(schedules|overrides)\[\d+\]|^timezone/.test(save.error?.field ?? '');
  const patchSlot = (key: number, change: Partial<SlotDraft>) => setSlots(slots.map((slot) => (slot.key === key ? { ...slot, ...change } : slot)));
  const patchOverride = (key: number, change: Partial<OverrideDraft>) => setOverrides(overrides.map((item) => (item.key === key ? { ...item, ...change } : item)));
  return (
    <form className="card" onSubmit={submit}>
      <label>
        Time zone
        <select value={timezone} disabled={!writable} onChange={(event) => setTimezone(event.target.value)}>
          {(zones.includes(timezone) ? zones : [timezone, ...zones]).map((zone) => (
            <option key={zone}>{zone}</option>
          ))}
        </select>
      </label>
      {save.error?.field === 'timezone' ? <ErrorNote error={save.error} /> : null}
      <h2>Weekly hours</h2>
      <div className="week">
        {DAYS.map((day, dayIndex) => (
          <fieldset key={day}>
            <legend>{day}</legend>
            {slots.filter((slot) => slot.day_of_week === dayIndex).length === 0 ? <p className="muted">Closed</p> : null}
            {slots.map((slot, index) =>
              slot.day_of_week !== dayIndex ? null : (
                <div key={slot.key}>
                  <div className="row-of-inputs">
                    <label>
                      From
                      <input type="time" step={1} value={slot.start_time} disabled={!writable} onChange={(event) => patchSlot(slot.key, { start_time: event.target.value })} required />
                    </label>
                    <label>
                      To
                      <input type="time" step={1} value={slot.end_time} disabled={!writable} onChange={(event) => patchSlot(slot.key, { end_time: event.target.value })} required />
                    </label>
                    {writable ? (
                      <button type="button" onClick={() => setSlots(slots.filter((other) => other.key !== slot.key))} aria-label={`Remove ${day} ${slot.start_time} to ${slot.end_time}`}>
                        Remove
                      </button>
                    ) : null}
                  </div>
                  {at('schedules', index)}
                </div>
              ),
            )}
            {writable ? (
              <button type="button" className="small" onClick={() => setSlots([...slots, { key: nextKey(), day_of_week: dayIndex, start_time: '09:00:00', end_time: '17:00:00' }])}>
                Add hours on {day}
              </button>
            ) : null}
          </fieldset>
        ))}
      </div>
      <h2>Date overrides</h2>
      {overrides.length === 0 ? <p className="muted">None: every date follows the weekly hours.</p> : null}
      {overrides.map((override, index) => (
        <fieldset key={override.key}>
          <legend>Override {index + 1}</legend>
          <div className="row-of-inputs">
            <label>
              Date
              <input type="date" value={override.date} disabled={!writable} onChange={(event) => patchOverride(override.key, { date: event.target.value })} required />
            </label>
            <label className="inline">
              <input type="checkbox" checked={override.unavailable} disabled={!writable} onChange={(event) => patchOverride(override.key, { unavailable: event.target.checked })} />
              Unavailable all day
            </label>
            {override.unavailable ? null : (
              <>
                <label>
                  From
                  <input type="time" step={1} value={override.start_time} disabled={!writable} onChange={(event) => patchOverride(override.key, { start_time: event.target.value })} />
                </label>
                <label>
                  To
                  <input type="time" step={1} value={override.end_time} disabled={!writable} onChange={(event) => patchOverride(override.key, { end_time: event.target.value })} />
                </label>
              </>
            )}
            {writable ? (
              <button type="button" onClick={() => setOverrides(overrides.filter((other) => other.key !== override.key))} aria-label={`Remove the override of ${override.date || 'a date'}`}>
                Remove
              </button>
            ) : null}
          </div>
          {at('overrides', index)}
        </fieldset>
      ))}
      {writable ? (
        <>
          <button type="button" onClick={() => setOverrides([...overrides, { key: nextKey(), date: '', unavailable: true, start_time: '09:00:00', end_time: '13:00:00' }])}>
            Add a date override
          </button>
          <div className="actions">
            <button type="submit" className="primary" disabled={save.busy}>
              Save availability
            </button>
            {placed ? null : <Outcome action={save} />}
          </div>
        </>
      ) : null}
    </form>
  );
}
