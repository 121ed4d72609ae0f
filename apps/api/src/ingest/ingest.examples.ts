import type { ErrorExamples } from '../openapi/decorators.js';

const BATCH_ID = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f';

/** The error examples of each IngestController route, by method name. */
export const INGEST_ERROR_EXAMPLES = {
  push: {
    400: {
      invalidRecords: {
        summary: 'Some records are invalid; nothing was queued',
        message: '1 of 2 records are invalid; nothing was queued',
        details: {
          invalid: [
            { index: 1, type: 'scrape', reasons: ['version must be a real calendar date'] },
          ],
        },
      },
    },
    413: {
      tooMany: {
        summary: 'More than 1,000 records',
        message: 'A batch holds at most 1000 records',
        details: { max: 1000, provided: 1001 },
      },
    },
    503: {
      notReplicated: {
        summary: "No replica of the queue's Redis held the batch in time",
        message:
          "No replica of the queue's Redis acknowledged the batch (waited at most 2000 ms); " +
          'send it again (records already applied count as duplicates)',
        details: { retry_after: 2 },
      },
    },
  },
  batch: {
    404: {
      unknown: {
        summary: 'Unknown batch',
        message: `No batch ${BATCH_ID} (or it is older than the retention time)`,
        details: { batch_id: BATCH_ID },
      },
    },
  },
} satisfies Record<string, ErrorExamples>;
