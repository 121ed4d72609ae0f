import { Injectable } from '@nestjs/common';
import { AppConfig } from '#app/config';
import {
  IngestQueue,
  ingestJobId,
  recordProblems,
  type IngestJobData,
  type IngestRecord,
} from '#app/contracts';
import { randomUUID } from 'node:crypto';
import { ApiError } from '../errors/api-error.js';
import { BatchManifestStore } from './batch-manifest.store.js';

export const MAX_RECORDS_PER_BATCH = 1_000;

export interface AcceptedBatch {
  batch_id: string;
  accepted: number;
  /** Distinct jobs: identical records within a batch are one job. */
  jobs: number;
}

export interface InvalidRecord {
  index: number;
  type: string | null;
  reasons: string[];
}

/**
 * Accepts a batch all or nothing: every record is checked before any is queued, and the answer
 * is sent only once every job is in Redis.
 */
@Injectable()
export class IngestService {
  constructor(
    private readonly config: AppConfig,
    private readonly ingestQueue: IngestQueue,
    private readonly manifests: BatchManifestStore,
  ) {}

  async accept(body: unknown, requestId: string | null): Promise<AcceptedBatch> {
    const records = await this.validBatch(body);
    const batchId = randomUUID();
    const jobIds = records.map((record) => ingestJobId(record, batchId));
    await this.manifests.save(batchId, jobIds, requestId);
    const jobs = new Map<string, { name: string; data: IngestJobData; opts: { jobId: string } }>();
    records.forEach((record, index) => {
      const jobId = jobIds[index] as string;
      jobs.set(jobId, { name: record.type, data: { record, batchId, requestId }, opts: { jobId } });
    });
    await this.ingestQueue.queue.addBulk([...jobs.values()]);
    return { batch_id: batchId, accepted: records.length, jobs: jobs.size };
  }

  private async validBatch(body: unknown): Promise<IngestRecord[]> {
    if (!Array.isArray(body)) {
      throw new ApiError(
        400,
        'INVALID_BATCH',
        'The body must be a JSON array of records or NDJSON',
      );
    }
    if (body.length === 0) throw new ApiError(400, 'INVALID_BATCH', 'The batch holds no record');
    if (body.length > MAX_RECORDS_PER_BATCH) {
      throw new ApiError(
        413,
        'BATCH_TOO_LARGE',
        `A batch holds at most ${MAX_RECORDS_PER_BATCH} records`,
        {
          max: MAX_RECORDS_PER_BATCH,
          provided: body.length,
        },
      );
    }
    const invalid: InvalidRecord[] = [];
    for (const [index, item] of body.entries()) {
      const reasons = await recordProblems(item, this.config.ingest.scrapers);
      if (reasons.length > 0) {
        const type = (item as { type?: unknown } | null)?.type;
        invalid.push({ index, type: typeof type === 'string' ? type : null, reasons });
      }
    }
    if (invalid.length > 0) {
      throw new ApiError(
        400,
        'INVALID_RECORDS',
        `${invalid.length} of ${body.length} records are invalid; nothing was queued`,
        { invalid },
      );
    }
    return body as IngestRecord[];
  }
}
