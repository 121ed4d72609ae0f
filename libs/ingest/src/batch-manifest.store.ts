import { Injectable } from '@nestjs/common';
import { AppConfig } from '#app/config';
import { IngestQueue } from '#app/contracts';

export interface BatchManifest {
  created_at: string;
  request_id: string | null;
  /** One per record, in the order the records were sent. */
  job_ids: string[];
}

/**
 * Which job each record of a batch became. Kept in Redis beside the jobs, as long as completed
 * jobs are kept, under one key per batch (any Redis Cluster slot will do).
 */
@Injectable()
export class BatchManifestStore {
  constructor(
    private readonly config: AppConfig,
    private readonly ingestQueue: IngestQueue,
  ) {}

  async save(batchId: string, jobIds: string[], requestId: string | null): Promise<void> {
    const manifest: BatchManifest = {
      created_at: new Date().toISOString(),
      request_id: requestId,
      job_ids: jobIds,
    };
    await this.ingestQueue.redis.set(
      this.key(batchId),
      JSON.stringify(manifest),
      'EX',
      this.config.ingest.retentionSeconds,
    );
  }

  async load(batchId: string): Promise<BatchManifest | null> {
    const text = await this.ingestQueue.redis.get(this.key(batchId));
    return text ? (JSON.parse(text) as BatchManifest) : null;
  }

  private key(batchId: string): string {
    return `${this.config.redis.queuePrefix}:ingest-batch:${batchId}`;
  }
}
