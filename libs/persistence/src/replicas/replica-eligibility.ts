/** What the last probe of a read replica found. */
export interface ReplicaReading {
  /** False when the replica could not be reached (or a query on it found it gone). */
  reachable: boolean;
  /**
   * How far its replay is behind, in milliseconds: 0 when it has replayed all the WAL it
   * received, else the time since the last transaction it replayed committed. Null when it
   * cannot tell (it is not a standby, or has replayed no transaction yet).
   */
  lagMs: number | null;
  /** Each read model's checkpoint stamp on the replica (CheckpointStore's text), by projector. */
  stamps: ReadonlyMap<string, string>;
}

/**
 * What a request's answer must not be older than: the stamp of the named read models' checkpoints
 * (CheckpointStore.stamp) read when the request began, after every answer given out before it.
 */
export interface ReadFloor {
  names: readonly string[];
  stamp: string;
}

export const UNREACHABLE: ReplicaReading = { reachable: false, lagMs: null, stamps: new Map() };

/** Why a replica is skipped whatever a request needs (READ_REPLICA_MAX_LAG_MS), or null. */
export function skipReason(reading: ReplicaReading, maxLagMs: number): string | null {
  if (!reading.reachable) return 'it cannot be reached';
  if (reading.lagMs === null) return 'its replay lag is unknown (is it a streaming standby?)';
  if (reading.lagMs > maxLagMs) {
    return `it lags ${Math.round(reading.lagMs)} ms, more than READ_REPLICA_MAX_LAG_MS (${maxLagMs})`;
  }
  return null;
}

/**
 * Whether the replica held, when probed, the read models exactly as the floor has them. A
 * replica only moves forward and the floor was read after the probe, so it holds them still:
 * what it answers is never older than an answer given out before the floor was read.
 */
export function holdsFloor(reading: ReplicaReading, floor: ReadFloor): boolean {
  return floor.names.map((name) => reading.stamps.get(name) ?? '').join(' ') === floor.stamp;
}

/** Whether a request whose answer must not be older than `floor` may read from the replica. */
export function mayServe(reading: ReplicaReading, floor: ReadFloor, maxLagMs: number): boolean {
  return skipReason(reading, maxLagMs) === null && holdsFloor(reading, floor);
}
