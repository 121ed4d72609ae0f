import { AsyncLocalStorage } from 'node:async_hooks';
import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { isDatabaseUnavailable } from '../database-unavailable.js';
import { CheckpointStore } from '../projections/checkpoint-store.js';
import { PROJECTOR_NAMES } from '../projections/projection-lag.reader.js';
import { ReadDatabase, type ReadTarget, type ReplicaState } from './read-database.js';
import { ReadReplica } from './read-replica.js';
import { holdsFloor, mayServe, skipReason, type ReadFloor } from './replica-eligibility.js';

/** How often each replica is probed (its lag, its stamps), whether requests come or not. */
const PROBE_INTERVAL_MS = 250;

/** One request's reads: where they go, chosen on its first read. */
class RequestReads {
  floor: ReadFloor | null = null;
  target: Promise<ReadReplica | null> | null = null;
}

/**
 * The read API's reads with read replicas (DATABASE_READ_URLS). Each request reads from one
 * database, chosen on its first read: a replica (round robin) that is reachable, lags at most
 * READ_REPLICA_MAX_LAG_MS and, when last probed, held every read model the request may read
 * exactly as the primary has it now (ReadFloor); else the primary. So an answer is never older
 * than one given out before, from whichever database. A replica that goes away under a query is
 * skipped at once and the query runs again on the primary. Reads outside a request (the worker's)
 * go to the primary.
 */
export class ReplicatedReadDatabase extends ReadDatabase implements OnApplicationShutdown {
  override readonly hasReplicas = true;
  private readonly requests = new AsyncLocalStorage<RequestReads>();
  private readonly counts: Record<ReadTarget, number> = { primary: 0, replica: 0 };
  private next = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly logger = new Logger(ReplicatedReadDatabase.name);

  constructor(
    primary: DataSource,
    private readonly replicas: ReadReplica[],
    private readonly maxLagMs: number,
    private readonly checkpoints: CheckpointStore,
  ) {
    super(primary);
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await Promise.all(this.replicas.map((replica) => replica.close()));
  }

  override withinRequest(next: () => void): void {
    // Probed from the first request on: a process that serves none (a worker) has no use of them.
    if (!this.timer) {
      this.probeAll();
      this.timer = setInterval(() => this.probeAll(), PROBE_INTERVAL_MS).unref();
    }
    this.requests.run(new RequestReads(), next);
  }

  override noteFloor(names: readonly string[], stamp: string): void {
    const reads = this.requests.getStore();
    if (reads && !reads.target) reads.floor = { names, stamp };
  }

  override async run<T>(work: (dataSource: DataSource) => Promise<T>): Promise<T> {
    const reads = this.requests.getStore();
    if (!reads) return work(this.primary);
    reads.target ??= this.choose(reads.floor);
    const replica = await reads.target;
    const connection = replica?.connection;
    if (!replica || !connection) return work(this.primary);
    try {
      return await work(connection);
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      replica.lost(error);
      reads.target = Promise.resolve(null);
      this.counts.primary += 1;
      return work(this.primary);
    }
  }

  override readsByTarget(): Record<ReadTarget, number> {
    return { ...this.counts };
  }

  override replicaStates(): ReplicaState[] {
    return this.replicas.map(({ name, reading }) => ({
      name,
      lagMs: reading.lagMs,
      usable: skipReason(reading, this.maxLagMs) === null,
    }));
  }

  /** A replica that may serve the request, or null for the primary. */
  private async choose(noted: ReadFloor | null): Promise<ReadReplica | null> {
    const floor = noted ?? (await this.floorOfEveryReadModel());
    const eligible = floor
      ? this.replicas.filter((replica) => mayServe(replica.reading, floor, this.maxLagMs))
      : [];
    if (eligible.length === 0) {
      // A usable one behind the floor is probed now, for the requests to come.
      for (const replica of this.replicas) {
        const usable = skipReason(replica.reading, this.maxLagMs) === null;
        if (floor && usable && !holdsFloor(replica.reading, floor)) replica.probeSoon();
      }
      this.counts.primary += 1;
      return null;
    }
    this.counts.replica += 1;
    return eligible[this.next++ % eligible.length]!;
  }

  /** Null when it cannot be read (Redis and the primary both away): the primary it is. */
  private async floorOfEveryReadModel(): Promise<ReadFloor | null> {
    try {
      return {
        names: PROJECTOR_NAMES,
        stamp: await this.checkpoints.currentStamp(PROJECTOR_NAMES),
      };
    } catch (error) {
      this.logger.debug(`No floor for a read: ${(error as Error).message}`);
      return null;
    }
  }

  private probeAll(): void {
    for (const replica of this.replicas) void replica.probe();
  }
}
