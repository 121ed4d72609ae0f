import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompanyRegistered, streamIds } from '#app/domain';
import { CheckpointStore, EventStore, TransactionRunner } from '#app/persistence';
import {
  ProjectionRunner,
  ProjectorFailedError,
} from '../apps/worker/src/projections/projection-runner.js';
import { records } from './support/records.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';
import { waitFor } from './support/wait-for.js';

/*
 * An event this code cannot decode (a type it does not know, a schema version it has no
 * upcaster from: a newer release wrote it, say) is never skipped: every projector stops just
 * before it, as before an event it cannot apply, and a rebuild that meets it changes nothing.
 */

const environment = testEnvironment();
let api: TestApp;
let transactions: TransactionRunner;

const METADATA = { batch_id: null, request_id: null, job_id: null, content_hash: 'planted' };

/** An event row written as another release of the service might have written it. */
async function plant(streamId: string, type: string, schemaVersion: number): Promise<void> {
  await transactions.query(
    `INSERT INTO events (stream_id, stream_version, type, schema_version, payload, metadata,
                         idempotency_key, recorded_at)
     VALUES ($1, 1, $2, $3, $4, $5, $6, $7)`,
    [
      streamId,
      type,
      schemaVersion,
      JSON.stringify({ slug: 'planted.io' }),
      JSON.stringify(METADATA),
      `planted:${streamId}`,
      new Date().toISOString(),
    ],
  );
}

async function register(slug: string): Promise<void> {
  await transactions.run((tx) =>
    api.app.get(EventStore).append(tx, [
      {
        event: new CompanyRegistered(streamIds.company(slug), {
          slug,
          name: slug,
          category: 'Finance',
          employees: '1-10',
          url: `https://${slug}`,
        }),
        expectedVersion: 0,
        idempotencyKey: `undecodable-test:${slug}`,
        metadata: METADATA,
      },
    ]),
  );
}

const companies = async (slug: string) =>
  (await transactions.query('SELECT slug FROM companies WHERE slug = $1', [slug])).length;

beforeAll(async () => {
  api = await startTestApp(environment.config(), { withWorker: true });
  transactions = api.app.get(TransactionRunner);
  await api.app.get(ProjectionRunner).ensureCheckpoints();
});

afterAll(async () => {
  await api?.close();
  await environment.cleanup();
});

describe('an event the registry cannot decode', () => {
  it('stops every projector just before it, and a rebuild that meets it rolls back', async () => {
    await register('before.io');
    await plant('company-merged.io', 'company.merged.v1', 1);
    await register('after.io');

    const runner = api.app.get(ProjectionRunner);
    const failures = await waitFor('every projector to stop', async () => {
      await runner.catchUp();
      const states = await api.app.get(CheckpointStore).states();
      return states.every((state) => state.failure) ? states : undefined;
    });
    for (const { name, failure } of failures) {
      expect(failure, name).toMatchObject({
        eventType: 'company.merged.v1',
        streamId: 'company-merged.io',
        error:
          `event ${failure!.eventSeq} (company.merged.v1, schema version 1) cannot be decoded: ` +
          'no event type of that name is registered',
      });
    }
    expect(await companies('before.io')).toBe(1);
    expect(await companies('after.io')).toBe(0);

    await expect(runner.rebuild()).rejects.toThrow(ProjectorFailedError);
    expect(await companies('before.io')).toBe(1);
  });

  it('fails the record whose decision reads it, not the others', async () => {
    await plant('company-future.io', CompanyRegistered.TYPE, 2);
    const status = await api.settled(
      await api.ingest([records.page('future.io'), records.company('present.io')]),
    );
    expect(status.counts).toMatchObject({ done: 1, failed: 1 });
    expect(status.failures).toEqual([
      expect.objectContaining({
        index: 0,
        type: 'page',
        reason: expect.stringMatching(
          /^event \d+ \(company\.registered\.v1, schema version 2\) cannot be decoded: no upcaster from schema version 2 \(the current version is 1\)/,
        ),
      }),
    ]);
  });
});
