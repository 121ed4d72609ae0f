import { CodedError } from '#app/contracts';

/** Why a batch is refused as a whole: nothing of it was queued. */
type InvalidBatchCode = 'INVALID_BATCH' | 'INVALID_RECORDS' | 'INVALID_NDJSON';

/** A batch refused as a whole (400): not a batch, an unparsable NDJSON line, invalid records. */
export class InvalidBatch extends CodedError {
  override readonly name = 'InvalidBatch';

  constructor(
    override readonly code: InvalidBatchCode,
    message: string,
    details?: Record<string, unknown>,
  ) {
    super(400, code, message, details);
  }
}

/** A batch of more records than one batch may hold (413). */
export class BatchTooLarge extends CodedError {
  override readonly name = 'BatchTooLarge';

  constructor(max: number, provided: number) {
    super(413, 'BATCH_TOO_LARGE', `A batch holds at most ${max} records`, { max, provided });
  }
}

/**
 * A JSON body that does not parse (400). The service parses a batch itself, not Fastify; the
 * answer is Fastify's, in its words (FST_ERR_CTP_EMPTY_JSON_BODY, FST_ERR_CTP_INVALID_JSON_BODY),
 * as for any other route's JSON body. This library does not depend on Fastify, so they are
 * written out; test/ingest.e2e.test.ts holds them to Fastify's own.
 */
export class UnparsableJsonBatch extends CodedError {
  override readonly name = 'UnparsableJsonBatch';

  constructor(empty: boolean) {
    super(
      400,
      'BAD_REQUEST',
      empty
        ? "Body cannot be empty when content-type is set to 'application/json'"
        : "Body is not valid JSON but content-type is set to 'application/json'",
    );
  }
}

/** No batch under that id, or one past the retention time (404). */
export class UnknownBatch extends CodedError {
  override readonly name = 'UnknownBatch';

  constructor(batchId: string) {
    super(404, 'BATCH_NOT_FOUND', `No batch ${batchId} (or it is older than the retention time)`, {
      batch_id: batchId,
    });
  }
}

/**
 * The batch's jobs reached the queue's master but no replica of it in time (503): a failover
 * now could lose them, so the batch is not acknowledged. They may still be applied; sent again,
 * the batch is applied once.
 */
export class BatchNotReplicated extends CodedError {
  override readonly name = 'BatchNotReplicated';

  constructor(waitedMs: number) {
    super(
      503,
      'SERVICE_UNAVAILABLE',
      `No replica of the queue's Redis acknowledged the batch (waited at most ${waitedMs} ms); ` +
        'send it again (records already applied count as duplicates)',
      { retry_after: Math.ceil(waitedMs / 1000) },
    );
  }
}
