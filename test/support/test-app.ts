import type { Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ApiKeysService, type ApiKeyScope } from '#app/access';
import type { AppConfig } from '#app/config';
import { createPricingClient, type components, type PricingClient } from '#app/client';
import type { IngestRecord } from '#app/contracts';
import { createHttpApp } from '../../apps/api/src/http-app.js';
import { WorkerModule } from '../../apps/worker/src/worker.module.js';
import { openApiValidator } from './openapi-validator.js';
import { pastBurstLimit } from './past-burst-limit.js';
import { waitFor } from './wait-for.js';

export interface TestApp {
  app: NestFastifyApplication;
  config: AppConfig;
  baseUrl: string;
  /**
   * A fetch against the app; `path` starts after `/v1`. Every response of a documented route
   * is checked against the OpenAPI document the app serves (status, required headers, JSON
   * body): a mismatch throws. The body is still unread. A burst refusal is waited out and the
   * request sent again, as a well-behaved client does, unless the app was started with
   * `waitOutBursts: false` (tests of the burst limit).
   */
  request(path: string, init?: RequestInit): Promise<Response>;
  /**
   * The typed client (libs/client) calling this app with `key`: its calls get the same checks
   * and the same patience with burst refusals as `request`'s.
   */
  client(key: string): PricingClient;
  createKey(scopes: ApiKeyScope[], plan?: string): Promise<string>;
  /** Posts a batch with an ingest key and returns the batch id (expects 202). */
  ingest(records: IngestRecord[] | unknown[]): Promise<string>;
  /** Waits until no record of the batch is waiting or active; returns its status. */
  settled(batchId: string, timeoutMs?: number): Promise<BatchStatusBody>;
  close(): Promise<void>;
}

export type BatchStatusBody = components['schemas']['BatchStatus'];

/** The HTTP app on a free port, with the worker in the same process unless told otherwise. */
export async function startTestApp(
  config: AppConfig,
  {
    withWorker = true,
    waitOutBursts = true,
    onAnswer,
    extraModules = [],
  }: {
    withWorker?: boolean;
    /** Modules beside the API's (and the worker's): routes a test declares for itself. */
    extraModules?: Type[];
    waitOutBursts?: boolean;
    /** Sees every answer to a request of `request`, `client` or the app's own helpers. */
    onAnswer?: (request: Request, response: Response) => void;
  } = {},
): Promise<TestApp> {
  const app = await createHttpApp(config, {
    extraModules: [...(withWorker ? [WorkerModule] : []), ...extraModules],
    shutdownHooks: false,
  });
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  const baseUrl = `http://127.0.0.1:${address.port}/v1`;
  const keys = app.get(ApiKeysService);
  const checkedFetch = async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    const validator = await openApiValidator(baseUrl);
    // A clone each time: a burst refusal sends the same request again.
    const send = async () => {
      const response = await fetch(request.clone());
      await validator.check(request.method, request.url, response);
      onAnswer?.(request, response);
      return response;
    };
    return waitOutBursts ? pastBurstLimit(send) : send();
  };
  let ingestKey: string | null = null;

  const testApp: TestApp = {
    app,
    config,
    baseUrl,
    request: (path, init) => checkedFetch(new Request(`${baseUrl}${path}`, init)),
    client: (key) => createPricingClient({ apiUrl: baseUrl, apiKey: key, fetch: checkedFetch }),
    createKey: async (scopes, plan = 'enterprise') =>
      (await keys.create({ name: `test-${scopes.join('-')}`, plan, scopes })).key,
    // A raw request: the records are the domain's (a category is any string there), looser
    // than the document's request body, and some tests push records the worker refuses.
    async ingest(records) {
      ingestKey ??= await testApp.createKey(['ingest']);
      const response = await testApp.request('/ingest/records', {
        method: 'POST',
        headers: { authorization: `Bearer ${ingestKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(records),
      });
      const body = (await response.json()) as { batch_id: string };
      if (response.status !== 202) {
        throw new Error(`ingest answered ${response.status}: ${JSON.stringify(body)}`);
      }
      return body.batch_id;
    },
    async settled(batchId, timeoutMs = 30_000) {
      ingestKey ??= await testApp.createKey(['ingest']);
      const client = testApp.client(ingestKey);
      return waitFor(
        `batch ${batchId} to settle`,
        async () => {
          const { data } = await client.GET('/v1/ingest/batches/{batchId}', {
            params: { path: { batchId } },
          });
          return data?.complete ? data : undefined;
        },
        timeoutMs,
        // Well below the burst limit (20 a second), which the status polls count against.
        200,
      );
    },
    close: () => app.close(),
  };
  return testApp;
}
