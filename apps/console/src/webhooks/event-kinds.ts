import type { Schema } from '@org-data-platform/sdk';
import { useSession } from '../session-context';
import { useLoad } from '../ui/hooks';

export type EventKind = Schema<'EventKind'>;

/** Every event kind a webhook can subscribe to, with its description, as the API lists them (GET /event-types). */
export function useEventKinds(): Schema<'EventTypeView'>[] {
  const { api } = useSession();
  return useLoad(() => api.GET('/event-types').then((answer) => answer.data), 'event-types').data ?? [];
}
