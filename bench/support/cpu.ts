/**
 * CPU time from /proc (Linux; USER_HZ is 100): one process's, and the whole machine's (the
 * service, PostgreSQL, Redis and the load generator together), so a scenario can say what each
 * unit of work cost the machine, which the throughput of a shared two-core host hides.
 */
import { readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';

/** utime + stime of a process in seconds, or null (no pid, or it has exited). */
export function processCpuSeconds(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** Busy CPU seconds of every core since boot: user, nice, system, irq and softirq (not steal). */
function machineCpuSeconds(): number {
  const [total] = readFileSync('/proc/stat', 'utf8').split('\n');
  const [user, nice, system, , , irq, softirq] = (total ?? '')
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0)) / 100;
}

/** CPU milliseconds per unit of work, for the machine and for each named process. */
export type CpuPerUnit = Record<string, number | null>;

/**
 * Starts counting; `perUnit(units)` gives the CPU spent since, per unit, by the machine
 * (`machine`) and by each process of `processes` (by name).
 */
export function cpuMeter(processes: Record<string, number | undefined> = {}) {
  const machineBefore = machineCpuSeconds();
  const before = Object.entries(processes).map(
    ([name, pid]) => [name, pid, processCpuSeconds(pid)] as const,
  );
  return {
    perUnit(units: number): CpuPerUnit {
      const perUnit = (seconds: number) => (seconds * 1000) / units;
      const spent: CpuPerUnit = { machine: perUnit(machineCpuSeconds() - machineBefore) };
      for (const [name, pid, start] of before) {
        const end = processCpuSeconds(pid);
        spent[name] = start === null || end === null ? null : perUnit(end - start);
      }
      return spent;
    },
  };
}

/**
 * Redis's CPU seconds so far (`INFO cpu`: user and system, all its threads), so that work moved
 * from the service into Redis is counted too.
 */
export async function redisCpuSeconds(redis: Redis): Promise<number> {
  const info = await redis.info('cpu');
  let seconds = 0;
  for (const line of info.split(/\r?\n/)) {
    const [name, value] = line.split(':');
    if (name === 'used_cpu_user' || name === 'used_cpu_sys') seconds += Number(value);
  }
  return seconds;
}
