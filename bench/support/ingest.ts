/**
 * Records into a benchmark's service through the real ingestion path: the API's batch
 * endpoint, then the worker.
 */
import { compositePageSlug, type IngestRecord } from '#app/domain';

/** The API's largest batch. */
export const BATCH_RECORDS = 1_000;

/** POSTs one batch; returns its id, or throws with the answer when it is not accepted. */
export async function postBatch(
  origin: string,
  headers: Record<string, string>,
  records: IngestRecord[],
): Promise<string> {
  const response = await fetch(`${origin}/v1/ingest/records`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(records),
  });
  const body = await response.text();
  if (response.status !== 202) throw new Error(`ingest answered ${response.status}: ${body}`);
  return (JSON.parse(body) as { batch_id: string }).batch_id;
}

/**
 * Sends the records as a pipeline would, one type after another (a company before its pages,
 * a scrape before its extraction), and waits until the worker has processed every batch.
 */
export async function ingest(
  origin: string,
  headers: Record<string, string>,
  records: IngestRecord[],
): Promise<void> {
  for (const type of ['company', 'page', 'scrape', 'pricing'] as const) {
    const ofType = records.filter((record) => record.type === type);
    const batches: string[] = [];
    for (let start = 0; start < ofType.length; start += BATCH_RECORDS) {
      batches.push(await postBatch(origin, headers, ofType.slice(start, start + BATCH_RECORDS)));
    }
    for (const batch of batches) await waitForBatch(origin, headers, batch);
  }
}

/**
 * Until the read models hold every extraction. Scrapes went in before extractions, and the
 * projectors move through the log together, so the files are in too. Asked of the pricing
 * route, because a 404 is never cached: a files answer asked for too early would be kept,
 * empty, for seconds.
 */
export async function untilProjected(
  origin: string,
  headers: Record<string, string>,
  records: IngestRecord[],
): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (const record of records) {
    if (record.type !== 'pricing') continue;
    const page = compositePageSlug(record.company_slug, record.page_slug);
    const path = `/v1/api/pricing/${page}?version=${record.version}`;
    for (;;) {
      const response = await fetch(`${origin}${path}`, { headers });
      await response.arrayBuffer();
      if (response.status === 200) break;
      if (Date.now() > deadline) throw new Error(`${path} still answers ${response.status}`);
      await new Promise((next) => setTimeout(next, 100));
    }
  }
}

async function waitForBatch(
  origin: string,
  headers: Record<string, string>,
  batch: string,
): Promise<void> {
  const deadline = Date.now() + 5 * 60_000;
  for (;;) {
    const response = await fetch(`${origin}/v1/ingest/batches/${batch}`, { headers });
    const status = (await response.json()) as {
      complete: boolean;
      counts: Record<string, number>;
      failures: unknown[];
    };
    if (status.complete) {
      if (status.counts.failed || status.counts.unknown) {
        throw new Error(`batch ${batch} ended with failures: ${JSON.stringify(status)}`);
      }
      return;
    }
    if (Date.now() > deadline) throw new Error(`batch ${batch} is not done after 5 minutes`);
    await new Promise((next) => setTimeout(next, 200));
  }
}
