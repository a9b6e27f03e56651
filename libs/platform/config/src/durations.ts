const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses `200ms`, `30s`, `5m`, `2h`, `3d` (or a bare number of milliseconds) into milliseconds. */
export function parseDuration(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(text);
  if (!match) return undefined;
  const ms = Number(match[1]) * UNIT_MS[match[2] ?? 'ms'];
  return Number.isFinite(ms) ? Math.round(ms) : undefined;
}

/** Parses a comma list of durations such as `1m,5m,30m,2h,24h`. */
export function parseDurationList(text: string): number[] | undefined {
  const parts = text.split(',').map(parseDuration);
  return parts.some((ms) => ms === undefined) ? undefined : (parts as number[]);
}
