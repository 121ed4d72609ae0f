import { Injectable } from '@nestjs/common';
import type { DataSource, EntityTarget, ObjectLiteral, Repository } from 'typeorm';
import { dialectOf, runSql, type Dialect } from '../sql.js';

/** The database a read-API query went to. */
export type ReadTarget = 'primary' | 'replica';

/** A read replica as metrics show it. */
export interface ReplicaState {
  name: string;
  /** Null when it cannot be reached or cannot tell. */
  lagMs: number | null;
  /** Reachable and within READ_REPLICA_MAX_LAG_MS. */
  usable: boolean;
}

/**
 * Where the read API's readers send their queries. This one, without read replicas, sends them
 * all to the primary (`DATABASE_URL`); ReplicatedReadDatabase chooses a replica per request.
 * Keys, the event log, projections, webhooks and migrations never come here: they stay on the
 * primary's DataSource.
 */
@Injectable()
export class ReadDatabase {
  readonly hasReplicas: boolean = false;

  constructor(protected readonly primary: DataSource) {}

  /** The primary's, which its replicas share. */
  get dialect(): Dialect {
    return dialectOf(this.primary.options);
  }

  /** Runs `work` on the database chosen for the current request. */
  run<T>(work: (dataSource: DataSource) => Promise<T>): Promise<T> {
    return work(this.primary);
  }

  /** Runs `work` on the entity's repository in the database chosen for the current request. */
  repository<E extends ObjectLiteral, T>(
    entity: EntityTarget<E>,
    work: (repository: Repository<E>) => Promise<T>,
  ): Promise<T> {
    return this.run((dataSource) => work(dataSource.getRepository(entity)));
  }

  /** A raw statement ($1 placeholders) on the database chosen for the current request. */
  query<T>(sql: string, params: unknown[]): Promise<T[]> {
    return this.run((dataSource) => runSql<T>(dataSource.manager, this.dialect, sql, params));
  }

  /**
   * Runs `next` (the rest of a request) as one request, whose reads all go to one database.
   * Nothing to carry without replicas.
   */
  withinRequest(next: () => void): void {
    next();
  }

  /**
   * The request's answer is made from the `names` read models only, and must not be older than
   * their `stamp` (read by the caller, CheckpointStore.stamp): spares the request reading it.
   */
  noteFloor(_names: readonly string[], _stamp: string): void {}

  /** Requests whose reads went to each target, since the process started. */
  readsByTarget(): Record<ReadTarget, number> {
    return { primary: 0, replica: 0 };
  }

  replicaStates(): ReplicaState[] {
    return [];
  }
}
