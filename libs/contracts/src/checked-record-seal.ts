import { Injectable } from '@nestjs/common';
import { AppConfig } from '#app/config';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ingestChunkJobId, ingestJobId, isChunkJob, type IngestJobData } from './ingest-job.js';

/**
 * The mark the API puts on a job whose records it checked, so that the worker does not check them
 * again (class-validator is most of the worker's own work on a record). It is an HMAC of the
 * job id, whose content hash binds the records, under a key derived from ADMIN_TOKEN, which the
 * API and the worker share. Without ADMIN_TOKEN no job is marked and the worker checks every
 * record. A job a pipeline adds itself carries no mark, and a record changed after it was
 * marked no longer matches its job id: both are checked.
 */
@Injectable()
export class CheckedRecordSeal {
  private readonly key: Buffer | null;

  constructor(config: AppConfig) {
    this.key =
      config.adminToken === null
        ? null
        : createHmac('sha256', config.adminToken).update('checked ingest record v1').digest();
  }

  /** The mark of a checked record's job, or undefined without a key. */
  seal(jobId: string): string | undefined {
    return this.key ? this.mac(this.key, jobId).toString('base64url') : undefined;
  }

  /** Whether the API checked the records of this job: its mark is the job id's, its id theirs. */
  holds(jobId: string | undefined, data: IngestJobData): boolean {
    const { checked, batchId } = data;
    if (!this.key || !jobId || typeof checked !== 'string' || batchId === null) return false;
    const given = Buffer.from(checked, 'base64url');
    const expected = this.mac(this.key, jobId);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
    try {
      const expected = isChunkJob(data)
        ? ingestChunkJobId(data.records, batchId, data.chunkIndex)
        : ingestJobId(data.record, batchId);
      return expected === jobId;
    } catch {
      // Records too damaged to name: the check says what is wrong with them.
      return false;
    }
  }

  private mac(key: Buffer, jobId: string): Buffer {
    return createHmac('sha256', key).update(jobId).digest();
  }
}
