import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ, 100 on Linux everywhere it runs). */
const TICKS_PER_SECOND = 100;

/** Resident set size of a process in MiB, from /proc/<pid>/status (VmRSS); undefined when it is gone. */
export function residentMiB(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Math.round(Number(match[1]) / 1024) : undefined;
  } catch {
    return undefined;
  }
}

/** CPU time (user + system) a process has used so far, in ms; 0 when it is gone. */
export function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which may itself hold spaces and parentheses: utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/**
 * CPU time a process's threads have used so far, in ms to the nanosecond (the sum of each thread's
 * /proc/<pid>/task/<tid>/schedstat), where `cpuMs` counts 10 ms ticks: for a process that uses a few
 * hundred ms in a measurement, a tick is several percent of it. A thread that ended is no longer
 * counted (Node's threads live as long as the process); 0 when the process is gone.
 */
export function preciseCpuMs(pid: number): number {
  return schedstatSum(pid, 0) / 1e6;
}

/**
 * How many times the scheduler has put a process's threads on a CPU so far (the third field of each
 * thread's schedstat): a thread that sleeps between messages is put on once per wake-up, so this counts
 * the wake-ups a unit of work costs. 0 when the process is gone.
 */
export function timesRun(pid: number): number {
  return schedstatSum(pid, 2);
}

/** One field of /proc/<pid>/task/<tid>/schedstat summed over the process's threads. */
function schedstatSum(pid: number, field: number): number {
  try {
    let sum = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        sum += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[field]);
      } catch {
        // The thread ended meanwhile.
      }
    }
    return sum;
  } catch {
    return 0;
  }
}
