import { useCallback, useEffect, useRef, useState } from 'react';
import { shownError, type ShownError } from '../errors';

export interface ActionState {
  busy: boolean;
  error?: ShownError;
  /** What the last success did, in words, for the status line beside the control. */
  done?: string;
}

/**
 * One user action: busy while it runs, then the API's error or a line saying what happened. `run`
 * answers the work's result, or undefined when it failed (the error is in the state).
 */
export function useAction<Args extends unknown[], Result>(work: (...args: Args) => Promise<Result>, said?: (result: Result) => string) {
  const [state, setState] = useState<ActionState>({ busy: false });
  const latest = useRef({ work, said });
  latest.current = { work, said };
  const run = useCallback(async (...args: Args): Promise<Result | undefined> => {
    setState({ busy: true });
    try {
      const result = await latest.current.work(...args);
      setState({ busy: false, done: latest.current.said?.(result) });
      return result;
    } catch (error) {
      setState({ busy: false, error: shownError(error) });
      return undefined;
    }
  }, []);
  const reset = useCallback(() => setState({ busy: false }), []);
  return { ...state, run, reset };
}

export interface Loaded<T> {
  data?: T;
  error?: ShownError;
  loading: boolean;
  reload(): void;
}

/** Data read when `key` changes (and every `everyMs` while shown, for live views); `reload` reads it again now. */
export function useLoad<T>(load: () => Promise<T>, key: string, everyMs?: number): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: ShownError; loading: boolean }>({ loading: true });
  const [round, setRound] = useState(0);
  const latest = useRef(load);
  latest.current = load;
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = async () => {
      try {
        const data = await latest.current();
        if (live) setState({ data, loading: false });
      } catch (error) {
        if (live) setState((previous) => ({ data: previous.data, error: shownError(error), loading: false }));
      }
      if (live && everyMs) timer = setTimeout(read, everyMs);
    };
    setState((previous) => ({ data: previous.data, loading: true }));
    void read();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [key, round, everyMs]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { ...state, reload };
}

/** Data read every `everyMs` until `finished` says it has ended (a job's progress), then no more; `onFinished` runs once then. */
export function useLoadUntil<T>(load: () => Promise<T>, key: string, everyMs: number, finished: (data: T) => boolean, onFinished?: () => void): Loaded<T> {
  const [ended, setEnded] = useState(false);
  return useLoad(
    async () => {
      const data = await load();
      if (finished(data) && !ended) {
        setEnded(true);
        onFinished?.();
      }
      return data;
    },
    key,
    ended ? undefined : everyMs,
  );
}
