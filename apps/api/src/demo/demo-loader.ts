import type { INestApplicationContext } from '@nestjs/common';
import { ApiKeysService } from '#app/access';
import { EventStore } from '#app/persistence';
import { IngestService, MAX_RECORDS_PER_BATCH } from '../ingest/ingest.service.js';
import { buildDemoCatalogue } from './demo-catalogue.js';

export interface DemoLoad {
  batchIds: string[];
  records: number;
  /** A key for the demo data, shown once. */
  key: string;
}

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
      records.slice(start, start + MAX_RECORDS_PER_BATCH),
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
