import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * `step` of each item in order, the event loop taking a turn after each one: I/O that arrives
 * meanwhile (another request, a Redis reply) waits for one step, never for all of them.
 * Awaiting a promise does not do this (it resumes before any I/O), so a loop of awaited
 * validations over a batch holds the loop until the last one, and several batches in flight
 * interleave into one long hold.
 */
export async function mapYielding<T, R>(
  items: readonly T[],
  step: (item: T, index: number) => R | Promise<R>,
): Promise<R[]> {
  const results: R[] = [];
  for (const [index, item] of items.entries()) {
    results.push(await step(item, index));
    await nextTurn();
  }
  return results;
}
