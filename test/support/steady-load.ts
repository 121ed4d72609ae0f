import type { ScrapeRecord } from '#app/contracts';
import { openApiValidator, type OpenApiValidator } from './openapi-validator.js';
import { records } from './records.js';

/** One answer the load got, judged against what the service promises under faults. */
export interface LoadAnswer {
  kind: 'ingest' | 'read';
  path: string;
  /** The test's label for the moment the request was sent (`mark`). */
  phase: string;
  /** The HTTP status, or what happened instead of an answer. */
  status: number | 'hang' | 'network error';
  /** A 503's retry-after at the top of the body, in `details`, and as the header. */
  retryAfter: { body: unknown; details: unknown; header: string | null } | null;
  /** Why the answer breaks the promise; null when it keeps it. */
  problem: string | null;
}

export interface AcceptedBatch {
  batchId: string;
  records: ScrapeRecord[];
}

export interface SteadyLoadOptions {
  /** Base URL (`http://host:port/v1`) of the API process under load. */
  api: string;
  ingestKey: string;
  readKey: string;
  /** Pages already known to the service: the load sends new scrape versions of them. */
  pages: { company_slug: string; page_slug: string }[];
  /** Metered reads (paths after `/v1`), taken in turn. */
  readPaths: string[];
}

/** The pace: a batch of ten new records every 250 ms, a read every 100 ms. */
const RECORDS_PER_BATCH = 10;
const INGEST_EVERY_MS = 250;
const READ_EVERY_MS = 100;
/** A request without a whole answer after this long is a hang. */
const CLIENT_TIMEOUT_MS = 10_000;

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/**
 * A steady load on a real API process until stopped: one loop posts ingest batches of new
 * records, another issues metered reads, each at its own modest pace and one request at a
 * time. Every answer is recorded and judged: the promise is a 2xx (202 for a batch, 200 for a
 * read), or a 503 whose `retry_after` is given at the top of the body, in `details` and as
 * `Retry-After`; anything else, a request left unanswered past the client timeout, or an answer
 * the OpenAPI document does not describe, breaks it. The accepted (202) batches are kept with
 * their records, for the checks that follow the fault.
 */
export class SteadyLoad {
  readonly answers: LoadAnswer[] = [];
  readonly accepted: AcceptedBatch[] = [];
  private phase = 'before';
  private stopping = false;
  private loops: Promise<void>[] = [];
  private recordsSent = 0;
  private readsSent = 0;
  private validator: OpenApiValidator | null = null;

  constructor(private readonly options: SteadyLoadOptions) {}

  /** Starts both loops (after fetching the OpenAPI document every answer is checked against). */
  async start(): Promise<void> {
    this.validator = await openApiValidator(this.options.api);
    this.loops = [
      this.loop(INGEST_EVERY_MS, () => this.ingest()),
      this.loop(READ_EVERY_MS, () => this.read()),
    ];
  }

  /** Labels the requests sent from now on (say `outage`, then `after`). */
  mark(phase: string): void {
    this.phase = phase;
  }

  /** Lets the requests in flight finish, then returns. */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all(this.loops);
  }

  /** The answers that broke the promise. */
  problems(): LoadAnswer[] {
    return this.answers.filter((answer) => answer.problem !== null);
  }

  /** 2xx answers to metered reads: exactly what the read key must have been charged. */
  chargedReads(): number {
    return this.answers.filter((answer) => answer.kind === 'read' && isSuccess(answer.status))
      .length;
  }

  /** How many answers of each kind and status each phase got, e.g. `outage: read 503 x12`. */
  summary(): string {
    const counts = new Map<string, number>();
    for (const { phase, kind, status } of this.answers) {
      const key = `${phase}: ${kind} ${status}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return [...counts].map(([key, count]) => `${key} x${count}`).join('; ');
  }

  private async loop(everyMs: number, send: () => Promise<unknown>): Promise<void> {
    while (!this.stopping) {
      const started = Date.now();
      await send();
      await sleep(Math.max(0, everyMs - (Date.now() - started)));
    }
  }

  /**
   * Posts one batch of `recordCount` new records now, besides the loop's (recorded and judged
   * like theirs): a backlog for the worker to be in the middle of when the fault strikes.
   */
  ingestNow(recordCount: number): Promise<AcceptedBatch | null> {
    return this.ingest(recordCount);
  }

  /** Posts a batch of new records; returns it when it was accepted. */
  private async ingest(recordCount = RECORDS_PER_BATCH): Promise<AcceptedBatch | null> {
    const batch = this.nextBatch(recordCount);
    const { status, body } = await this.send('ingest', '/ingest/records', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${this.options.ingestKey}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(batch),
    });
    if (status !== 202) return null;
    const accepted = { batchId: (body as { batch_id: string }).batch_id, records: batch };
    this.accepted.push(accepted);
    return accepted;
  }

  private async read(): Promise<void> {
    const { readPaths, readKey } = this.options;
    const path = readPaths[this.readsSent++ % readPaths.length] as string;
    await this.send('read', path, { headers: { authorization: `Bearer ${readKey}` } });
  }

  /** New scrapes: the pages in turn, each with versions a day apart and four scrapers a day. */
  private nextBatch(recordCount: number): ScrapeRecord[] {
    const { pages } = this.options;
    return Array.from({ length: recordCount }, () => {
      const sent = this.recordsSent++;
      const page = pages[sent % pages.length] as SteadyLoadOptions['pages'][number];
      const ofPage = Math.floor(sent / pages.length);
      const day = new Date(Date.UTC(2020, 0, 1 + Math.floor(ofPage / 4)));
      const version = day.toISOString().slice(0, 10).replace(/-/g, '');
      return records.scrape(page.company_slug, page.page_slug, version, {
        scraper: `scraper_${(ofPage % 4) + 1}`,
      });
    });
  }

  private async send(
    kind: LoadAnswer['kind'],
    path: string,
    init: RequestInit,
  ): Promise<{ status: LoadAnswer['status']; body: unknown }> {
    const url = `${this.options.api}${path}`;
    const answer: LoadAnswer = {
      kind,
      path,
      phase: this.phase,
      status: 'hang',
      retryAfter: null,
      problem: null,
    };
    this.answers.push(answer);
    let body: unknown = null;
    try {
      // The timeout covers the body too: an answer that starts and never ends is a hang as well.
      const response = await fetch(url, {
        ...init,
        signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
      });
      const undocumented = await this.validator
        ?.check(init.method ?? 'GET', url, response)
        .then(() => null)
        .catch((error: Error) => error.message);
      const text = await response.text();
      body = parseJson(text);
      answer.status = response.status;
      if (response.status === 503) {
        const { retry_after, details } = (body ?? {}) as {
          retry_after?: unknown;
          details?: { retry_after?: unknown };
        };
        answer.retryAfter = {
          body: retry_after,
          details: details?.retry_after,
          header: response.headers.get('retry-after'),
        };
      }
      answer.problem = undocumented ?? judge(kind, answer, text);
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError';
      answer.status = timedOut ? 'hang' : 'network error';
      answer.problem = timedOut
        ? `no answer within ${CLIENT_TIMEOUT_MS} ms`
        : `network error: ${(error as Error).message}`;
    }
    return { status: answer.status, body };
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function isSuccess(status: LoadAnswer['status']): boolean {
  return typeof status === 'number' && status >= 200 && status < 300;
}

/** Null when the answer keeps the promise, else why not. */
function judge(kind: LoadAnswer['kind'], answer: LoadAnswer, text: string): string | null {
  if (answer.status === (kind === 'ingest' ? 202 : 200)) return null;
  if (answer.status === 503) {
    const { body, details, header } = answer.retryAfter ?? {};
    const consistent =
      Number.isInteger(body) &&
      (body as number) >= 1 &&
      details === body &&
      header === String(body);
    return consistent ? null : `503 without a consistent retry_after: ${text.slice(0, 300)}`;
  }
  return `answered ${answer.status}: ${text.slice(0, 300)}`;
}
