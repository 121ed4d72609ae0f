import { Logger } from '@nestjs/common';
import { CommandHandler, EventBus, type ICommandHandler } from '@nestjs/cqrs';
import {
  AppendRecords,
  DependencyMissingError,
  RecordConflictError,
  UndecodableEventError,
  type CommandOrigin,
  type DomainEvent,
  type IngestRecord,
  type RecordOutcome,
} from '#app/domain';
import {
  EventStore,
  StreamConcurrencyError,
  TransactionRunner,
  type PendingAppend,
  type Transaction,
} from '#app/persistence';
import { ChunkLog } from './chunk-log.js';
import { decide, readsOf, writtenBy, type Decision, type Reads } from './record-decisions.js';

/** Another worker appending to one of the chunk's streams first: the re-read settles it. */
const MAX_CONCURRENCY_RETRIES = 5;

interface Decided {
  outcomes: RecordOutcome[];
  appended: DomainEvent[];
}

/**
 * Decides a job's records in one transaction: one read of the log per kind of stream for all of
 * them, then each record in order against what was read, the appends of a round in one multi-row
 * INSERT. A record that reads a stream an earlier record of the round appends to decides again
 * in the next round, as does one whose company, page or scrape was missing while the round
 * appended something (perhaps that dependency): a company and its page in one chunk both land,
 * and a company's profiles A, B, A end at A.
 * Each record gets its own outcome; the events are published (to nudge the projectors) once
 * committed.
 */
@CommandHandler(AppendRecords)
export class AppendRecordsHandler implements ICommandHandler<AppendRecords, RecordOutcome[]> {
  private readonly logger = new Logger(AppendRecordsHandler.name);

  constructor(
    private readonly transactions: TransactionRunner,
    private readonly eventStore: EventStore,
    private readonly eventBus: EventBus,
  ) {}

  async execute({ records, origin }: AppendRecords): Promise<RecordOutcome[]> {
    const reads = records.map((record) => readsOf(record));
    for (let attempt = 1; ; attempt += 1) {
      let decided: Decided;
      try {
        decided = await this.transactions.run((tx) => this.decideAll(tx, records, reads, origin));
      } catch (error) {
        if (error instanceof StreamConcurrencyError && attempt < MAX_CONCURRENCY_RETRIES) continue;
        throw error;
      }
      if (decided.appended.length > 0) {
        // Committed: the projectors also find the events by polling.
        try {
          this.eventBus.publishAll(decided.appended);
        } catch (error) {
          this.logger.warn(`events appended but not published: ${(error as Error).message}`);
        }
      }
      return decided.outcomes;
    }
  }

  private async decideAll(
    tx: Transaction,
    records: readonly IngestRecord[],
    reads: readonly Reads[],
    origin: CommandOrigin,
  ): Promise<Decided> {
    const log = await ChunkLog.read(this.eventStore, tx, reads);
    const outcomes: RecordOutcome[] = [];
    const appended: DomainEvent[] = [];
    let round = records.map((_, index) => index);
    while (round.length > 0) {
      const appends: PendingAppend[] = [];
      // Streams this round appends to: a record that reads one decides in the next round,
      // against the events appended (the same company twice, a page after its company).
      const appendedTo = new Set<string>();
      const again: number[] = [];
      const waiting = new Map<number, string>();
      for (const index of round) {
        if (readsAny(reads[index] as Reads, appendedTo)) {
          again.push(index);
          continue;
        }
        const decision = decideOne(records[index] as IngestRecord, log, origin);
        if ('outcome' in decision) {
          if (decision.outcome === 'waiting') waiting.set(index, decision.reason);
          else outcomes[index] = decision;
        } else if ('sameAs' in decision) {
          const ownEvent = writtenBy(decision.sameAs, origin);
          outcomes[index] = { outcome: ownEvent ? 'appended' : 'duplicate' };
        } else {
          appendedTo.add(decision.event.streamId);
          appends.push(decision);
          outcomes[index] = { outcome: 'appended' };
        }
      }
      if (appends.length > 0) {
        log.add(await this.eventStore.append(tx, appends));
        appended.push(...appends.map((pending) => pending.event));
        again.push(...waiting.keys());
      } else {
        for (const [index, reason] of waiting) outcomes[index] = { outcome: 'waiting', reason };
      }
      round = again.sort((a, b) => a - b);
    }
    return { outcomes, appended };
  }
}

/**
 * A record's decision, or its outcome when there is nothing to append. Besides a missing
 * company, page or scrape (DependencyMissingError), an event of the log this release cannot
 * decode makes the record wait: a newer worker may read it.
 */
function decideOne(
  record: IngestRecord,
  log: ChunkLog,
  origin: CommandOrigin,
): Decision | RecordOutcome {
  try {
    return decide(record, log, origin);
  } catch (error) {
    if (error instanceof RecordConflictError) return { outcome: 'refused', reason: error.message };
    if (error instanceof DependencyMissingError || error instanceof UndecodableEventError) {
      return { outcome: 'waiting', reason: error.message };
    }
    throw error;
  }
}

/** Whether a decision that reads `reads` reads one of `streams` (by id, or by a prefix of it). */
function readsAny(reads: Reads, streams: Set<string>): boolean {
  if (reads.streams.some((id) => streams.has(id))) return true;
  for (const id of streams) {
    if (reads.prefixes.some((prefix) => id.startsWith(prefix))) return true;
  }
  return false;
}
