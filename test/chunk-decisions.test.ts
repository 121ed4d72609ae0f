import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CommandBus } from '@nestjs/cqrs';
import type { IngestRecord } from '#app/contracts';
import {
  AppendRecords,
  CompanyProfileChanged,
  CompanyRegistered,
  PricingExtracted,
  PricingPageRegistered,
  ScrapeCaptured,
  streamIds,
  type CommandOrigin,
  type RecordOutcome,
} from '#app/domain';
import { EventStore, TransactionRunner } from '#app/persistence';
import { records } from './support/records.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';

/**
 * The worker decides a job's records (a chunk) together, in one transaction. These tests send
 * chunks straight to the command bus and check that each record still gets the outcome it would
 * get alone.
 */
const environment = testEnvironment();
let api: TestApp;
let commands: CommandBus;
let transactions: TransactionRunner;

const noOrigin: CommandOrigin = { batchId: null, requestId: null, jobId: null };

/** Decides the records as one chunk; answers each record's outcome. */
function sendTogether(chunk: IngestRecord[], origin = noOrigin) {
  return commands.execute<AppendRecords, RecordOutcome[]>(new AppendRecords(chunk, origin));
}

const appended = { outcome: 'appended' };

/** The events of the given streams, in log order. */
function eventsOf(...streams: string[]) {
  return transactions.query<{ stream_id: string; type: string; transaction_id: unknown }>(
    `SELECT stream_id, type, transaction_id FROM events
     WHERE stream_id IN (${streams.map((_, i) => `$${i + 1}`).join(', ')}) ORDER BY seq`,
    streams,
  );
}

beforeAll(async () => {
  api = await startTestApp(environment.config());
  commands = api.app.get(CommandBus);
  transactions = api.app.get(TransactionRunner);
});

afterAll(async () => {
  await api?.close();
  await environment.cleanup();
});

describe('a chunk decided together', () => {
  it('appends a company, its page, a scrape and an extraction sent together in reverse order', async () => {
    const outcomes = await sendTogether([
      records.pricing('reverse.io', '', '20250101'),
      records.scrape('reverse.io', '', '20250101'),
      records.page('reverse.io'),
      records.company('reverse.io'),
    ]);
    expect(outcomes).toEqual([appended, appended, appended, appended]);
    const events = await eventsOf(
      streamIds.company('reverse.io'),
      streamIds.page('reverse.io', ''),
      streamIds.scrape('reverse.io', '', '20250101', 'scraper_1'),
      streamIds.pricing('reverse.io', '', '20250101'),
    );
    // Each round appends what the previous rounds made possible: dependencies come first.
    expect(events.map((event) => event.type)).toEqual([
      CompanyRegistered.TYPE,
      PricingPageRegistered.TYPE,
      ScrapeCaptured.TYPE,
      PricingExtracted.TYPE,
    ]);
    if (environment.dialect === 'postgres') {
      expect(new Set(events.map((event) => String(event.transaction_id))).size).toBe(1);
    }
  });

  it('fails a conflicting record and a record whose dependency is missing alone', async () => {
    await sendTogether([records.company('alone.io'), records.page('alone.io')]);
    const [scrape] = await sendTogether([records.scrape('alone.io', '', '20250101')]);
    expect(scrape).toEqual(appended);

    const outcomes = await sendTogether([
      records.scrape('alone.io', '', '20250101', { score: 3 }),
      records.scrape('alone.io', '', '20250102'),
      records.page('nobody.io'),
      records.scrape('alone.io', '', '20250101'),
    ]);
    expect(outcomes).toEqual([
      { outcome: 'refused', reason: expect.stringMatching(/already recorded with other content/) },
      appended,
      { outcome: 'waiting', reason: 'company nobody.io is not known yet' },
      { outcome: 'duplicate' },
    ]);
    const scrapes = await eventsOf(
      streamIds.scrape('alone.io', '', '20250101', 'scraper_1'),
      streamIds.scrape('alone.io', '', '20250102', 'scraper_1'),
    );
    expect(scrapes).toHaveLength(2);
  });

  it('decides two records of one stream one after the other', async () => {
    const outcomes = await sendTogether([
      records.company('twice.io'),
      records.company('twice.io', { name: 'Twice Renamed' }),
      records.company('twice.io', { name: 'Twice Renamed' }),
    ]);
    // The first registers, the renaming changes the profile once, and its copy (sent by no
    // batch or job) is a duplicate.
    expect(outcomes).toEqual([appended, appended, { outcome: 'duplicate' }]);
    const events = await eventsOf(streamIds.company('twice.io'));
    expect(events.map((event) => event.type)).toEqual([
      CompanyRegistered.TYPE,
      CompanyProfileChanged.TYPE,
    ]);
  });

  it('follows a profile that changes and changes back within one chunk (A, B, A): it ends at A', async () => {
    const renamed = records.company('swing-chunk.io', { name: 'Swing B' });
    const outcomes = await sendTogether(
      [records.company('swing-chunk.io'), renamed, records.company('swing-chunk.io')],
      { batchId: 'batch-swing', requestId: null, jobId: 'chunk-batch-swing-0' },
    );
    expect(outcomes).toEqual([appended, appended, appended]);
    const events = await eventsOf(streamIds.company('swing-chunk.io'));
    expect(events.map((event) => event.type)).toEqual([
      CompanyRegistered.TYPE,
      CompanyProfileChanged.TYPE,
      CompanyProfileChanged.TYPE,
    ]);
  });

  it("counts what its own job or batch appended as appended, on a rerun too, and another's as a duplicate", async () => {
    const chunk = [
      records.company('rerun.io'),
      records.company('rerun.io'),
      records.company('rerun-b.io'),
    ];
    const origin = { batchId: 'batch-rerun', requestId: null, jobId: 'chunk-batch-rerun-0' };
    expect(await sendTogether(chunk, origin)).toEqual([appended, appended, appended]);
    // The same job run again (its worker killed after the commit) appends nothing new.
    expect(await sendTogether(chunk, origin)).toEqual([appended, appended, appended]);
    // Another chunk of the same batch finds them too.
    expect(await sendTogether(chunk, { ...origin, jobId: 'chunk-batch-rerun-1' })).toEqual([
      appended,
      appended,
      appended,
    ]);
    // Another sending finds them recorded.
    expect(
      await sendTogether(chunk, {
        batchId: 'batch-other',
        requestId: null,
        jobId: 'chunk-batch-other-0',
      }),
    ).toEqual([{ outcome: 'duplicate' }, { outcome: 'duplicate' }, { outcome: 'duplicate' }]);
    // Run again after another batch renamed the company, the job's own registration stands.
    await sendTogether([records.company('rerun.io', { name: 'Renamed' })], {
      batchId: 'batch-renaming',
      requestId: null,
      jobId: 'chunk-batch-renaming-0',
    });
    expect(await sendTogether(chunk, origin)).toEqual([appended, appended, appended]);
    expect(
      await eventsOf(streamIds.company('rerun.io'), streamIds.company('rerun-b.io')),
    ).toHaveLength(3);
  });

  it('reads the log once per kind of stream and appends in one statement, whatever the chunk holds', async () => {
    await sendTogether([records.company('many.io'), records.page('many.io')]);
    // 25 days, 4 scrapers: 100 scrapes of one page.
    const chunk = Array.from({ length: 100 }, (_, index) =>
      records.scrape('many.io', '', `202501${String(1 + Math.floor(index / 4)).padStart(2, '0')}`, {
        scraper: `scraper_${1 + (index % 4)}`,
      }),
    );
    const eventStore = api.app.get(EventStore);
    const reads = vi.spyOn(eventStore, 'readStreams');
    const prefixReads = vi.spyOn(eventStore, 'readStreamStartsWithPrefixes');
    const appends = vi.spyOn(eventStore, 'append');
    try {
      const outcomes = await sendTogether(chunk);
      expect(outcomes.every((outcome) => outcome.outcome === 'appended')).toBe(true);
      expect([
        reads.mock.calls.length,
        prefixReads.mock.calls.length,
        appends.mock.calls.length,
      ]).toEqual([1, 0, 1]);
      expect(appends.mock.calls[0]?.[1]).toHaveLength(chunk.length);
    } finally {
      vi.restoreAllMocks();
    }
  });
});
