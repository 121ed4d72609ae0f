import { Injectable } from '@nestjs/common';
import { EventBus } from '@nestjs/cqrs';
import type { DomainEvent, IngestOutcome } from '#app/domain';
import {
  EventStore,
  StreamConcurrencyError,
  Transaction,
  TransactionRunner,
  type PendingAppend,
} from '#app/persistence';

/** What a command decided after reading the log: nothing new, or these events. */
export type Decision = 'duplicate' | PendingAppend[];

const MAX_CONCURRENCY_RETRIES = 5;

/**
 * The write path every ingest command shares: read and decide inside one transaction, append,
 * and publish the events once committed. A lost race on a stream is retried at once, because
 * the winner's events change the decision (usually into "duplicate").
 */
@Injectable()
export class RecordAppender {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly eventStore: EventStore,
    private readonly eventBus: EventBus,
  ) {}

  async decideAndAppend(decide: (tx: Transaction) => Promise<Decision>): Promise<IngestOutcome> {
    for (let attempt = 1; ; attempt++) {
      try {
        const appended = await this.transactions.run(async (tx) => {
          const decision = await decide(tx);
          if (decision === 'duplicate') return [];
          await this.eventStore.append(tx, decision);
          return decision.map((pending) => pending.event);
        });
        if (appended.length === 0) return 'duplicate';
        this.eventBus.publishAll<DomainEvent>(appended);
        return 'appended';
      } catch (error) {
        if (!(error instanceof StreamConcurrencyError) || attempt >= MAX_CONCURRENCY_RETRIES) {
          throw error;
        }
      }
    }
  }

  readStream(tx: Transaction, streamId: string) {
    return this.eventStore.readStream(tx, streamId);
  }

  readStreamStarts(tx: Transaction, prefix: string) {
    return this.eventStore.readStreamStartsWithPrefix(tx, prefix);
  }
}
