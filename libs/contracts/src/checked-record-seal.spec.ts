import { describe, expect, it } from 'vitest';
import type { AppConfig } from '#app/config';
import type { CompanyRecord } from '#app/domain';
import { CheckedRecordSeal } from './checked-record-seal.js';
import {
  ingestChunkJobId,
  ingestJobId,
  type IngestChunkJobData,
  type IngestJobData,
} from './ingest-job.js';

const sealWith = (adminToken: string | null) =>
  new CheckedRecordSeal({ adminToken } as unknown as AppConfig);

const record: CompanyRecord = {
  type: 'company',
  slug: 'acme.io',
  name: 'Acme',
  category: 'Sales',
  employees: '11-50',
  url: 'https://acme.io',
};
const batchId = 'b5a1c3f4-7d0e-4c55-9a43-0f2d3c4b5a69';
const jobId = ingestJobId(record, batchId);

function marked(seal: CheckedRecordSeal, data: Partial<IngestJobData> = {}): IngestJobData {
  return { record, batchId, requestId: null, checked: seal.seal(jobId), ...data };
}

describe('CheckedRecordSeal', () => {
  const seal = sealWith('admin-token-0123456789');

  it('holds for the job it marked', () => {
    expect(seal.holds(jobId, marked(seal))).toBe(true);
  });

  it('does not hold for a job without a mark, or with another job id', () => {
    expect(seal.holds(jobId, marked(seal, { checked: undefined }))).toBe(false);
    expect(seal.holds(undefined, marked(seal))).toBe(false);
    const otherBatch = ingestJobId(record, 'another-sending');
    expect(seal.holds(otherBatch, marked(seal))).toBe(false);
  });

  it('does not hold once the record changed, though the mark and the job id are genuine', () => {
    const changed = { ...record, category: 'Gardening' } as unknown as CompanyRecord;
    expect(seal.holds(jobId, marked(seal, { record: changed }))).toBe(false);
    const damaged = { type: 'company' } as unknown as CompanyRecord;
    expect(seal.holds(jobId, marked(seal, { record: damaged }))).toBe(false);
  });

  it("holds for a chunk's job it marked, and not once a record, the order or the index changed", () => {
    const other = { ...record, slug: 'other.io' };
    const chunkId = ingestChunkJobId([record, other], batchId, 3);
    const chunk: IngestChunkJobData = {
      records: [record, other],
      batchId,
      requestId: null,
      chunkIndex: 3,
      firstIndex: 300,
      checked: seal.seal(chunkId),
    };
    expect(seal.holds(chunkId, chunk)).toBe(true);
    expect(seal.holds(chunkId, { ...chunk, records: [other, record] })).toBe(false);
    expect(seal.holds(chunkId, { ...chunk, records: [record, { ...other, name: 'x' }] })).toBe(
      false,
    );
    expect(seal.holds(chunkId, { ...chunk, chunkIndex: 4 })).toBe(false);
  });

  it('does not hold for a job a pipeline added (no batch of the API)', () => {
    expect(seal.holds(jobId, marked(seal, { batchId: null }))).toBe(false);
  });

  it('does not hold for a mark made under another ADMIN_TOKEN, nor for a forged or cut one', () => {
    const foreign = sealWith('another-admin-token-9876543210');
    expect(seal.holds(jobId, marked(foreign))).toBe(false);
    const genuine = seal.seal(jobId) as string;
    expect(seal.holds(jobId, marked(seal, { checked: genuine.slice(0, -4) }))).toBe(false);
    expect(seal.holds(jobId, marked(seal, { checked: 'A'.repeat(genuine.length) }))).toBe(false);
  });

  it('marks nothing without ADMIN_TOKEN, and then holds for nothing', () => {
    const keyless = sealWith(null);
    expect(keyless.seal(jobId)).toBeUndefined();
    expect(keyless.holds(jobId, marked(seal))).toBe(false);
  });
});
