import type { WriteOutcome } from './steady-row-writer';

export interface FaultWindow {
  label: string;
  /** When the fault was injected. */
  from: number;
  /** When everything was ready again. */
  to: number;
}

/**
 * Records when each fault was injected and when the system was whole again, so that failed requests
 * can be attributed: a request "overlaps" a window when its own span touches [from, to + grace].
 */
export class FaultLog {
  readonly windows: FaultWindow[] = [];

  constructor(private readonly graceMs = 1_000) {}

  async inject(label: string, harm: () => Promise<void>): Promise<FaultWindow> {
    const from = Date.now();
    await harm();
    const window = { label, from, to: Date.now() };
    this.windows.push(window);
    return window;
  }

  windowOf(outcome: WriteOutcome): FaultWindow | undefined {
    return this.windows.find((window) => outcome.endedAt >= window.from && outcome.startedAt <= window.to + this.graceMs);
  }
}

export interface FailureTally {
  sent: number;
  acked: number;
  /** Failed requests per fault window label (error answers, connection errors), and the ones outside any. */
  failedByWindow: Record<string, { errorAnswers: number; connectionErrors: number; codes: Record<string, number> }>;
  failedOutsideWindows: WriteOutcome[];
  /** Requests that got no answer within the bound. */
  hangs: WriteOutcome[];
  /** Error answers that were not in the error body, or statuses other than 201/5xx. */
  unclean: WriteOutcome[];
  slowestMs: number;
}

export function tallyOutcomes(outcomes: WriteOutcome[], faults: FaultLog): FailureTally {
  const tally: FailureTally = { sent: outcomes.length, acked: 0, failedByWindow: {}, failedOutsideWindows: [], hangs: [], unclean: [], slowestMs: 0 };
  for (const outcome of outcomes) {
    tally.slowestMs = Math.max(tally.slowestMs, outcome.endedAt - outcome.startedAt);
    if (outcome.result === 'acked') {
      tally.acked += 1;
      continue;
    }
    if (outcome.result === 'timeout') tally.hangs.push(outcome);
    if (outcome.result === 'error-answer' && (outcome.detail !== undefined || outcome.status < 500)) tally.unclean.push(outcome);
    const window = faults.windowOf(outcome);
    if (!window) {
      tally.failedOutsideWindows.push(outcome);
      continue;
    }
    const entry = (tally.failedByWindow[window.label] ??= { errorAnswers: 0, connectionErrors: 0, codes: {} });
    if (outcome.result === 'connection-error') entry.connectionErrors += 1;
    if (outcome.result === 'error-answer') {
      entry.errorAnswers += 1;
      const code = `${outcome.status} ${outcome.errorCode ?? '?'}`;
      entry.codes[code] = (entry.codes[code] ?? 0) + 1;
    }
  }
  return tally;
}
