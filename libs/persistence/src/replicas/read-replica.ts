import { Logger } from '@nestjs/common';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { checkpointStampOf, type CheckpointRow } from '../projections/checkpoint-store.js';
import { PROJECTOR_NAMES } from '../projections/projection-lag.reader.js';
import { skipReason, UNREACHABLE, type ReplicaReading } from './replica-eligibility.js';

/**
 * The replica's lag as the contract defines it, and its read models' checkpoints, in one round
 * trip. A replica with no checkpoint yet still answers one row (its lag).
 */
const PROBE = `
  SELECT CASE WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
              ELSE EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp()) * 1000 END AS lag_ms,
         c.name, c.last_seq, c.last_transaction_id, c.updated_at
  FROM (SELECT 1) AS probe LEFT JOIN projection_checkpoints c ON c.name = ANY($1)`;

type ProbeRow = { lag_ms: string | number | null; name: string | null } & CheckpointRow & {
    updated_at: string;
  };

/** A probe a request asked for comes no sooner than this after the last one. */
const MIN_PROBE_GAP_MS = 25;

/** A replica's address for logs and metrics: host, port and database, never credentials. */
function replicaName(url: string): string {
  const { hostname, port, pathname } = new URL(url);
  return `${hostname}:${port || '5432'}${pathname}`;
}

/**
 * One read replica: its connection pool and what its last probe found. Connects on its first
 * probe and, while it cannot be reached, on each later one.
 */
export class ReadReplica {
  readonly name: string;
  reading: ReplicaReading = UNREACHABLE;
  private dataSource: DataSource | null = null;
  private probing: Promise<void> | null = null;
  private lastProbeAt = 0;
  /** Whether the last probe found it usable, for logging each change once. */
  private usable: boolean | null = null;
  private readonly logger = new Logger(ReadReplica.name);

  constructor(
    url: string,
    private readonly options: DataSourceOptions,
    private readonly maxLagMs: number,
  ) {
    this.name = replicaName(url);
  }

  /** Its pool, once connected. */
  get connection(): DataSource | null {
    return this.dataSource;
  }

  /** Reads its lag and stamps; one probe at a time. */
  probe(): Promise<void> {
    this.probing ??= this.probeNow().finally(() => (this.probing = null));
    return this.probing;
  }

  /** A probe now unless one runs or ran a moment ago: a request found the replica behind. */
  probeSoon(): void {
    if (!this.probing && Date.now() - this.lastProbeAt >= MIN_PROBE_GAP_MS) void this.probe();
  }

  /** A query found it gone: skipped until a probe reaches it again. */
  lost(error: unknown): void {
    this.reading = UNREACHABLE;
    this.noteUsable(`it cannot be reached: ${(error as Error).message}`);
  }

  async close(): Promise<void> {
    await this.probing;
    await this.dataSource?.destroy();
  }

  private async probeNow(): Promise<void> {
    this.lastProbeAt = Date.now();
    let rows: ProbeRow[];
    try {
      rows = await (await this.connected()).query<ProbeRow[]>(PROBE, [[...PROJECTOR_NAMES]]);
    } catch (error) {
      this.lost(error);
      return;
    }
    const lag = rows[0]?.lag_ms ?? null;
    this.reading = {
      reachable: true,
      lagMs: lag === null ? null : Number(lag),
      stamps: new Map(
        rows.flatMap((row) => (row.name ? [[row.name, checkpointStampOf(row)]] : [])),
      ),
    };
    this.noteUsable(skipReason(this.reading, this.maxLagMs));
  }

  private async connected(): Promise<DataSource> {
    // A data source whose first connection failed is dropped: the next probe makes a new one.
    this.dataSource ??= new DataSource(this.options);
    if (!this.dataSource.isInitialized) {
      const connecting = this.dataSource;
      this.dataSource = null;
      await connecting.initialize();
      this.dataSource = connecting;
    }
    return this.dataSource;
  }

  private noteUsable(reason: string | null): void {
    const usable = reason === null;
    if (usable === this.usable) return;
    // The first probe's success is not news; its failure is.
    if (!usable) this.logger.warn(`Read replica ${this.name} skipped: ${reason}`);
    else if (this.usable === false) this.logger.log(`Read replica ${this.name} used again`);
    this.usable = usable;
  }
}
