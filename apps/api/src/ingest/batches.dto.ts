import { ApiSchema } from '@nestjs/swagger';
import { RECORD_TYPES } from '#app/domain';
import { Properties } from '../openapi/properties.js';

/** What the ingestion routes answer; the records they take are documented from their classes. */

const COUNT = { type: 'integer', minimum: 0 } as const;

@ApiSchema({ name: 'AcceptedBatch', description: 'The batch is durably queued.' })
export class AcceptedBatchDto extends Properties({
  batch_id: { format: 'uuid', example: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f' },
  accepted: { type: 'integer', minimum: 1, description: 'Records in the batch', example: 5 },
  jobs: {
    type: 'integer',
    minimum: 1,
    description: 'Jobs queued: one per chunk of INGEST_CHUNK_SIZE records (500 by default)',
    example: 1,
  },
}) {}

@ApiSchema({ name: 'BatchCounts', description: 'How many records of the batch are in each state.' })
class BatchCountsDto extends Properties({
  waiting: COUNT,
  active: COUNT,
  done: COUNT,
  duplicate: { ...COUNT, description: 'Records already recorded with the same content (a no-op)' },
  failed: COUNT,
  unknown: {
    ...COUNT,
    description:
      'Records with no outcome whose job is no longer in the queue (removed by an operator)',
  },
}) {}

@ApiSchema({ name: 'BatchFailure' })
class BatchFailureDto extends Properties({
  index: { ...COUNT, description: 'Position of the record in the batch' },
  job_id: { description: "The job of the record's chunk" },
  type: { enum: [...RECORD_TYPES] },
  reason: { example: 'company never.io is not known yet; gave up after 4 attempts' },
}) {}

@ApiSchema({ name: 'BatchStatus' })
export class BatchStatusDto extends Properties({
  batch_id: { format: 'uuid' },
  created_at: { format: 'date-time' },
  total: { type: 'integer', minimum: 1, description: 'Records in the batch' },
  complete: { type: Boolean, description: 'True once no record is waiting or active' },
  counts: { type: () => BatchCountsDto },
  failures: { type: () => [BatchFailureDto] },
}) {}
