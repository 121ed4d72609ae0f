import { Injectable, Logger } from '@nestjs/common';
import { EventBus } from '@nestjs/cqrs';
import {
  DependencyMissingError,
  RecordConflictError,
  type DomainEvent,
  type IngestOutcome,
} from '#app/domain';
import {
  EventStore,
  isDatabaseUnavailable,
  StreamConcurrencyError,
  Transaction,
  TransactionRunner,
  type PendingAppend,
} from '#app/persistence';
import { BatchedStreamReader, type StreamReader } from './batched-stream-reader.js';

/** What a command decided after reading the log: nothing new, or these events. */
type Decision = 'duplicate' | PendingAppend[];

type Decide = (streams: StreamReader) => Promise<Decision>;

interface Member {
  decide: Decide;
  resolve(outcome: IngestOutcome): void;
  reject(error: unknown): void;
}

interface GroupResult {
  outcomes: Map<Member, IngestOutcome | Error>;
  appended: DomainEvent[];
}

const MAX_CONCURRENCY_RETRIES = 5;
/** Records per transaction; the worker's concurrency usually bounds a group first. */
const MAX_GROUP_SIZE = 500;

/**
 * The write path every ingest command shares: read the log, decide, append, and publish the
 * events once committed. Decisions that arrive while a transaction commits wait and go into
 * the next one together (group commit): one transaction, a few batched reads and one
 * multi-row append serve a whole group of jobs. Each member still gets its own outcome: a
 * record that conflicts or waits for a dependency fails alone.
 */
@Injectable()
export class RecordAppender {
  private readonly logger = new Logger(RecordAppender.name);
  private readonly waiting: Member[] = [];
  private committing = false;

  constructor(
    private readonly transactions: TransactionRunner,
    private readonly eventStore: EventStore,
    private readonly eventBus: EventBus,
  ) {}

  decideAndAppend(decide: Decide): Promise<IngestOutcome> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ decide, resolve, reject });
      if (this.committing) return;
      this.committing = true;
      // From the next turn of the event loop: jobs that start together commit together.
      setImmediate(() => void this.commitWhileWaiting());
    });
  }

  private async commitWhileWaiting(): Promise<void> {
    try {
      while (this.waiting.length > 0) {
        const group = this.waiting.splice(0, MAX_GROUP_SIZE);
        // Whatever goes wrong, every member is settled (a settled one ignores the rejection):
        // its job fails and is tried again, and the retry finds what was appended.
        await this.commit(group).catch((error: unknown) => {
          for (const member of group) member.reject(error);
        });
      }
    } finally {
      this.committing = false;
    }
  }

  /** Commits a group, or on failure each member alone, so that one bad record fails alone. */
  private async commit(group: Member[], attempt = 1): Promise<void> {
    let result: GroupResult;
    try {
      result = await this.transactions.run((tx) => this.decideAll(tx, group));
    } catch (error) {
      // Another process won a race on a stream: the re-read usually turns it into a duplicate.
      if (error instanceof StreamConcurrencyError && attempt < MAX_CONCURRENCY_RETRIES) {
        return this.commit(group, attempt + 1);
      }
      // With the database away, committing the members one by one would only fail each again.
      if (group.length === 1 || isDatabaseUnavailable(error)) {
        for (const member of group) member.reject(error);
        return;
      }
      for (const member of group) await this.commit([member]);
      return;
    }
    for (const [member, outcome] of result.outcomes) {
      if (outcome instanceof Error) member.reject(outcome);
      else member.resolve(outcome);
    }
    if (result.appended.length === 0) return;
    // Committed, and the members told so: the projectors also find the events by polling.
    try {
      this.eventBus.publishAll(result.appended);
    } catch (error) {
      this.logger.warn(`events appended but not published: ${(error as Error).message}`);
    }
  }

  /**
   * Decides every member in rounds inside one transaction. A round's decisions run side by side
   * over the log as the previous rounds left it; its appends go out in one statement. A member
   * whose stream or idempotency key another member of the round took, or whose dependency was
   * missing while the round appended something (perhaps that dependency), decides again in the
   * next round. Errors other than the two record errors abort the whole transaction.
   */
  private async decideAll(tx: Transaction, group: Member[]): Promise<GroupResult> {
    const outcomes = new Map<Member, IngestOutcome | Error>();
    const appended: DomainEvent[] = [];
    let round = group;
    while (round.length > 0) {
      const streams = new BatchedStreamReader(this.eventStore, tx);
      const decisions = await Promise.allSettled(round.map((member) => member.decide(streams)));
      const appends: PendingAppend[] = [];
      const taken = new Set<string>();
      const again: Member[] = [];
      const waitingForDependency = new Map<Member, DependencyMissingError>();
      for (const [index, decision] of decisions.entries()) {
        const member = round[index] as Member;
        if (decision.status === 'rejected') {
          const error: unknown = decision.reason;
          if (error instanceof DependencyMissingError) waitingForDependency.set(member, error);
          else if (error instanceof RecordConflictError) outcomes.set(member, error);
          else throw error;
        } else if (decision.value === 'duplicate') {
          outcomes.set(member, 'duplicate');
        } else {
          const claims = decision.value.flatMap((pending) => [
            `stream ${pending.event.streamId}`,
            `key ${pending.idempotencyKey}`,
          ]);
          if (claims.some((claim) => taken.has(claim))) {
            again.push(member);
            continue;
          }
          for (const claim of claims) taken.add(claim);
          appends.push(...decision.value);
          outcomes.set(member, 'appended');
        }
      }
      if (appends.length > 0) {
        await this.eventStore.append(tx, appends);
        appended.push(...appends.map((pending) => pending.event));
        again.push(...waitingForDependency.keys());
      } else {
        for (const [member, error] of waitingForDependency) outcomes.set(member, error);
      }
      round = again;
    }
    return { outcomes, appended };
  }
}
