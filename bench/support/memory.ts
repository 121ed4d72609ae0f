/**
 * Memory of service processes over a long run: resident memory from /proc, and the V8 heap
 * from each process's own `/metrics` (prom-client's default metrics), so that a leak shows as
 * growth between the start and the end of the run.
 */
import { parsePrometheusText } from '../../test/support/prometheus-text.js';
import type { ServiceProcess } from './service.js';

const MB = 1024 * 1024;

export interface MemorySample {
  /** Seconds since the load started. */
  seconds: number;
  rssMb: number;
  /** V8 heap in use; null when /metrics did not answer. */
  heapUsedMb: number | null;
}

/** Start, end, peak and growth of one figure, in MB. */
export interface MemoryFigure {
  start: number;
  end: number;
  peak: number;
  growth: number;
}

export interface MemorySummary {
  rss: MemoryFigure;
  heap: MemoryFigure | null;
  /** What grew by more than the threshold, e.g. 'heap +40.2 MB'. */
  flagged: string[];
}

/** The process's memory now; null once it has exited. */
export async function sampleMemory(
  service: ServiceProcess,
  seconds: number,
): Promise<MemorySample | null> {
  const rssMb = service.rssMb();
  if (rssMb === 0) return null;
  const heapUsedMb = await fetch(`${service.origin}/metrics`, {
    signal: AbortSignal.timeout(5_000),
  }).then(
    async (response) => {
      const used = parsePrometheusText(await response.text()).value('nodejs_heap_size_used_bytes');
      return used === undefined ? null : used / MB;
    },
    () => null,
  );
  return { seconds, rssMb, heapUsedMb };
}

/**
 * Start and end of the samples taken after the warm-up. Resident memory moves slowly, so its
 * start and end are the first and last samples. The heap saws up and down with each garbage
 * collection, so its start and end are the lowest sample of the first and of the last quarter
 * of the run: what the process kept, not what it had yet to collect. Null without samples (a
 * process that exited during the warm-up).
 */
export function summariseMemory(
  samples: MemorySample[],
  peakRssMb: number,
  maxGrowthMb: number,
): MemorySummary | null {
  const first = samples[0];
  const last = samples.at(-1);
  if (!first || !last) return null;
  const rss = {
    start: first.rssMb,
    end: last.rssMb,
    peak: Math.max(peakRssMb, ...samples.map((sample) => sample.rssMb)),
    growth: last.rssMb - first.rssMb,
  };
  const heaps = samples.flatMap((sample) =>
    sample.heapUsedMb === null ? [] : [sample.heapUsedMb],
  );
  const quarter = Math.max(1, Math.floor(heaps.length / 4));
  const start = Math.min(...heaps.slice(0, quarter));
  const end = Math.min(...heaps.slice(-quarter));
  const heap =
    heaps.length === 0 ? null : { start, end, peak: Math.max(...heaps), growth: end - start };
  const flagged: string[] = [];
  for (const [name, figure] of [
    ['RSS', rss],
    ['heap', heap],
  ] as const) {
    if (figure && figure.growth > maxGrowthMb) {
      flagged.push(`${name} +${figure.growth.toFixed(1)} MB`);
    }
  }
  return { rss, heap, flagged };
}
