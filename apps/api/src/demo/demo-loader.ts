import type { INestApplicationContext } from '@nestjs/common';
import { ApiKeysService } from '#app/access';
import { batchBodyOf } from '#app/contracts';
import { EventStore, ProjectionLagReader } from '#app/persistence';
import {
  BatchStatusService,
  IngestService,
  MAX_RECORDS_PER_BATCH,
  noRecords,
  type RecordState,
} from '#app/ingest';
import { buildDemoCatalogue } from './demo-catalogue.js';

interface DemoLoad {
  batchIds: string[];
  records: number;
  /** A key for the demo data, shown once. */
  key: string;
}

/** How the demo records ended, by batch state; `settled` counts those no longer queued. */
export interface DemoProgress {
  records: number;
  settled: number;
  counts: Record<RecordState, number>;
}

const POLL_MS = 500;

/**
 * On an empty event log, queues the demo catalogue through the same validation and queue as
 * POST /v1/ingest/records, and creates a key to read it with. Null when the log has events.
 */
export async function loadDemoDataIfEmpty(app: INestApplicationContext): Promise<DemoLoad | null> {
  if ((await app.get(EventStore).headSeq()) > 0) return null;
  const ingest = app.get(IngestService);
  const records = buildDemoCatalogue();
  const batchIds: string[] = [];
  // Batches in dependency order (companies first); the worker retries any that overtake.
  for (let start = 0; start < records.length; start += MAX_RECORDS_PER_BATCH) {
    const batch = await ingest.accept(
      batchBodyOf(records.slice(start, start + MAX_RECORDS_PER_BATCH)),
      'demo-data',
    );
    batchIds.push(batch.batch_id);
  }
  const created = await app.get(ApiKeysService).create({
    name: 'demo',
    plan: 'enterprise',
    scopes: ['read', 'ingest'],
  });
  return { batchIds, records: records.length, key: created.key };
}

/**
 * Waits until every record of the demo batches was processed and the read models show them
 * (no projector behind), telling `onProgress` as records settle. A worker must run.
 */
export async function demoLoaded(
  app: INestApplicationContext,
  load: DemoLoad,
  onProgress: (progress: DemoProgress) => void,
): Promise<DemoProgress> {
  const batches = app.get(BatchStatusService);
  const lag = app.get(ProjectionLagReader);
  for (;;) {
    const statuses = await Promise.all(load.batchIds.map((id) => batches.status(id)));
    const progress: DemoProgress = { records: load.records, settled: 0, counts: noRecords() };
    for (const status of statuses) {
      for (const [state, count] of Object.entries(status.counts) as [RecordState, number][]) {
        progress.counts[state] += count;
      }
    }
    progress.settled = progress.records - progress.counts.waiting - progress.counts.active;
    onProgress(progress);
    const projected = (await lag.read()).every((projector) => projector.events === 0);
    if (statuses.every((status) => status.complete) && projected) return progress;
    await new Promise((next) => setTimeout(next, POLL_MS));
  }
}
