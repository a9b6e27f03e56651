import { readFileSync } from 'node:fs';

/** Resident set size of a process in MiB, from /proc/<pid>/status (VmRSS); undefined when it is gone. */
export function residentMiB(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Math.round(Number(match[1]) / 1024) : undefined;
  } catch {
    return undefined;
  }
}
