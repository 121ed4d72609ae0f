import {
  DependencyMissingError,
  idempotencyKey,
  RecordConflictError,
  naturalKey,
  PricingPageRegistered,
  recordContentHash,
  streamIds,
  type CommandOrigin,
  type DecodedEvent,
  type EventMetadata,
  type IngestRecord,
  type PricingPageRegisteredPayload,
  type RegisteredEvent,
} from '#app/domain';
import type { PendingAppend } from '#app/persistence';
import type { StreamReader } from './batched-stream-reader.js';

export function metadataFor(record: IngestRecord, origin: CommandOrigin): EventMetadata {
  return {
    batch_id: origin.batchId,
    request_id: origin.requestId,
    job_id: origin.jobId,
    content_hash: recordContentHash(record),
  };
}

/** The append of `event` as the first event of a new stream, for an immutable record. */
export function firstEventOf(
  record: IngestRecord,
  origin: CommandOrigin,
  event: RegisteredEvent,
): PendingAppend[] {
  return [
    {
      event,
      expectedVersion: 0,
      idempotencyKey: idempotencyKey(record),
      metadata: metadataFor(record, origin),
    },
  ];
}

/**
 * An immutable record (page, scrape, extraction, exchange rate) whose stream already exists: the
 * same content is a duplicate; other content is a conflict that names both versions, and the
 * first stays.
 */
export function duplicateOrConflict(record: IngestRecord, existing: DecodedEvent): 'duplicate' {
  const incoming = recordContentHash(record);
  if (existing.metadata.content_hash === incoming) return 'duplicate';
  throw new RecordConflictError(
    `${record.type} ${naturalKey(record)} is already recorded with other content ` +
      `(sha256 ${existing.metadata.content_hash.slice(0, 16)}, event ${existing.seq}` +
      `${existing.metadata.batch_id ? `, batch ${existing.metadata.batch_id}` : ''}); ` +
      `this record has sha256 ${incoming.slice(0, 16)}. Recorded ${record.type}s never change: ` +
      'the first version stays.',
  );
}

export async function requireCompany(streams: StreamReader, companySlug: string): Promise<void> {
  const [registered] = await streams.readStream(streamIds.company(companySlug));
  if (!registered) throw new DependencyMissingError(`company ${companySlug} is not known yet`);
}

/** The page's registration, checked to belong to this company and sub-slug. */
export async function requirePage(
  streams: StreamReader,
  companySlug: string,
  pageSlug: string,
): Promise<PricingPageRegisteredPayload> {
  const [registered] = await streams.readStream(streamIds.page(companySlug, pageSlug));
  const page = pageRegistration(registered);
  if (!page || page.company_slug !== companySlug || page.page_slug !== pageSlug) {
    throw new DependencyMissingError(
      `pricing page ${companySlug}/${pageSlug} (sub-slug "${pageSlug}") is not known yet`,
    );
  }
  return page;
}

/** The registration a page's stream starts with (and holds alone). */
export function pageRegistration(
  event: DecodedEvent | undefined,
): PricingPageRegisteredPayload | undefined {
  return event?.type === PricingPageRegistered.TYPE ? event.payload : undefined;
}
