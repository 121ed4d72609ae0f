import { randomUUID } from 'node:crypto';
import {
  CheckedRecordSeal,
  IngestQueue,
  ingestJobId,
  type IngestRecord,
  type IngestRecordJobData,
} from '#app/contracts';
import { EventStore, TransactionRunner } from '#app/persistence';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { showOutputOnFailure, stopApiProcess } from './support/api-process.js';
import { records } from './support/records.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';
import { waitFor } from './support/wait-for.js';
import { startWorkerProcess, workerReady, type WorkerProcess } from './support/worker-process.js';

/*
 * An upgrade with jobs still queued: the previous release queued one job per record (named by
 * its type, `ingestJobId` of the record and its batch, the API's mark), and kept a manifest of
 * the batch's job ids. They are queued here as it did, with no worker running; then a worker of
 * this release starts, applies each record once, and the batch's status still reads.
 */

const environment = testEnvironment();
let api: TestApp;
let worker: WorkerProcess | undefined;

beforeAll(async () => {
  api = await startTestApp(environment.config(), { withWorker: false });
});

afterAll(async () => {
  if (worker) await stopApiProcess(worker);
  await api?.close();
  await environment.cleanup();
}, 60_000);

/** Queues `batch` as the previous release's API did: its manifest, then a job per record. */
async function queueAsThePreviousRelease(batch: IngestRecord[]): Promise<string[]> {
  const ingestQueue = api.app.get(IngestQueue);
  const seal = api.app.get(CheckedRecordSeal);
  const batchId = randomUUID();
  const jobIds = batch.map((record) => ingestJobId(record, batchId));
  const manifest = { created_at: new Date().toISOString(), request_id: null, job_ids: jobIds };
  await ingestQueue.redis.set(
    `${api.config.redis.queuePrefix}:ingest-batch:${batchId}`,
    JSON.stringify(manifest),
  );
  await ingestQueue.queue.addBulk(
    batch.map((record, index) => {
      const jobId = jobIds[index] as string;
      const data: IngestRecordJobData = {
        record,
        batchId,
        requestId: null,
        checked: seal.seal(jobId),
      };
      return { name: record.type, data, opts: { jobId } };
    }),
  );
  return [batchId, ...jobIds];
}

describe('one-record jobs queued by the previous release', () => {
  it('are applied once by a worker of this release, and their batch status still reads', async () => {
    const batch = [
      records.company('upgrade.io'),
      records.page('upgrade.io'),
      records.scrape('upgrade.io', '', '20250101'),
    ];
    const [batchId, ...jobIds] = await queueAsThePreviousRelease(batch);
    // A pipeline's own one-record job, as the pipelines' guide showed it.
    const pipelineRecord = records.company('upgrade-pipeline.io');
    const pipelineJobId = ingestJobId(pipelineRecord, randomUUID());
    await api.app
      .get(IngestQueue)
      .queue.add(
        pipelineRecord.type,
        { record: pipelineRecord, batchId: null, requestId: null },
        { jobId: pipelineJobId },
      );

    worker = await startWorkerProcess('worker', environment.env);
    showOutputOnFailure([worker]);
    await workerReady(worker);
    const status = await api.settled(batchId as string);
    expect(status).toMatchObject({
      total: 3,
      complete: true,
      counts: { done: 3, duplicate: 0, failed: 0, waiting: 0, active: 0, unknown: 0 },
    });
    const queue = api.app.get(IngestQueue).queue;
    await waitFor('the pipeline job to complete', async () =>
      (await queue.getJobState(pipelineJobId)) === 'completed' ? true : undefined,
    );
    const streams = [
      'company-upgrade.io',
      'page-upgrade',
      'scrape-upgrade.io//20250101/scraper_1',
      'company-upgrade-pipeline.io',
    ];
    const logged = await api.app
      .get(TransactionRunner)
      .run((tx) => api.app.get(EventStore).readStreams(tx, streams));
    // One event each, naming the job it came from.
    expect(
      streams.map((stream) => logged.get(stream)?.map((event) => event.metadata.job_id)),
    ).toEqual([...jobIds, pipelineJobId].map((jobId) => [jobId]));
  }, 120_000);
});
