import type { EventBus } from '@nestjs/cqrs';
import type { EventStore, PendingAppend, Transaction, TransactionRunner } from '#app/persistence';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RecordAppender } from './record-appender.js';

/** A transaction runner that commits at once: the appender's own logic is what is under test. */
const transactions = {
  run: <T>(work: (tx: Transaction) => Promise<T>) => work({} as Transaction),
} as unknown as TransactionRunner;

const eventStore = { append: vi.fn(async () => undefined) } as unknown as EventStore;

const pending = (id: string) =>
  ({
    event: { streamId: `stream-${id}` },
    idempotencyKey: `key-${id}`,
  }) as unknown as PendingAppend;

describe('RecordAppender', () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  afterEach(() => {
    expect(unhandled).toEqual([]);
  });

  it('settles every member of a committed group even when publishing its events throws', async () => {
    const eventBus = {
      publishAll: () => {
        throw new Error('a handler failed');
      },
    } as unknown as EventBus;
    const appender = new RecordAppender(transactions, eventStore, eventBus);
    const outcomes = await Promise.all([
      appender.decideAndAppend(async () => [pending('a')]),
      appender.decideAndAppend(async () => 'duplicate'),
    ]);
    expect(outcomes).toEqual(['appended', 'duplicate']);
    // The appender still takes new work.
    expect(await appender.decideAndAppend(async () => [pending('b')])).toBe('appended');
  });

  it('fails every member of a group whose commit throws, and leaves no rejection unhandled', async () => {
    const failing = {
      run: async () => {
        throw new Error('disk full');
      },
    } as unknown as TransactionRunner;
    const appender = new RecordAppender(failing, eventStore, { publishAll: vi.fn() } as never);
    await expect(appender.decideAndAppend(async () => [pending('c')])).rejects.toThrow('disk full');
  });
});
