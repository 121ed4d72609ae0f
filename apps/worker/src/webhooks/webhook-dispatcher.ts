import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '#app/config';
import { createRedisConnection, WEBHOOK_QUEUE, type RedisConnection } from '#app/contracts';
import {
  CompanyReader,
  PricingChangeReader,
  pricingChangeView,
  WebhookRepository,
  type LogPosition,
  type PricingChangeEntity,
  type WebhookEntity,
} from '#app/persistence';
import {
  passesFilters,
  WEBHOOK_JOB_NAME,
  webhookJobOptions,
  type WebhookJobData,
  type WebhookJobResult,
} from '#app/webhooks';
import { Queue } from 'bullmq';
import { PollingLoop } from '../polling-loop.js';

/** Extractions whose deliveries are queued in one step. */
const EXTRACTIONS_PER_STEP = 100;

const compare = (a: LogPosition, b: LogPosition): number => {
  const byTransaction = BigInt(a.transactionId) - BigInt(b.transactionId);
  if (byTransaction !== 0n) return byTransaction > 0n ? 1 : -1;
  return Math.sign(a.seq - b.seq);
};

/**
 * Follows the change feed and queues one delivery per webhook and extraction with changes the
 * webhook asked for (passesFilters; none, no delivery). Every worker runs one; they need no
 * lock between them. A step queues its jobs, then moves the shared position only if nobody
 * moved it (or registered a webhook) meanwhile: a crash or a lost race between the two queues
 * the same jobs again, under the same ids, which BullMQ keeps as one job. So each change is
 * queued at least once, and in practice once.
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly loop = new PollingLoop(
    new Logger(WebhookDispatcher.name),
    'webhook dispatch',
    () => this.step(),
  );
  private connection?: RedisConnection;
  private queue?: Queue<WebhookJobData, WebhookJobResult>;

  constructor(
    private readonly config: AppConfig,
    private readonly changes: PricingChangeReader,
    private readonly webhooks: WebhookRepository,
    private readonly companies: CompanyReader,
  ) {}

  onApplicationBootstrap(): void {
    // Fails fast when Redis is away: the position stays, and the next tick tries again.
    this.connection = createRedisConnection(this.config.redis, 'webhook-dispatch', {
      maxRetriesPerRequest: 1,
    });
    this.queue = new Queue(WEBHOOK_QUEUE, {
      connection: this.connection,
      prefix: this.config.redis.queuePrefix,
      defaultJobOptions: webhookJobOptions(this.config),
    });
    this.queue.on('error', () => undefined);
    this.loop.start(this.config.projections.pollMs);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.loop.stop();
    await this.queue?.close();
    this.connection?.disconnect();
  }

  /** Queues the deliveries of the next extractions; whether there may be more to do. */
  private async step(): Promise<boolean> {
    const state = await this.webhooks.dispatchState();
    const webhooks = (await this.webhooks.all()).map(subscription);
    if (webhooks.length === 0) {
      // Nobody to deliver to: skip to the feed's end (a registration meanwhile stops the move).
      const end = await this.changes.lastExtraction();
      if (compare(end, state.position) > 0) await this.webhooks.advanceDispatch(state, end);
      return false;
    }
    const rows = await this.changes.extractionsAfter(state.position, EXTRACTIONS_PER_STEP);
    if (rows.length === 0) return false;
    // The companies' categories as they are now, read only when a webhook filters by them.
    const categories = webhooks.some(({ webhook }) => webhook.categories)
      ? await this.companies.categoriesOf([...new Set(rows.map((row) => row.companySlug))])
      : new Map<string, string>();
    const extractions = groupByExtraction(rows);
    const jobs = extractions.flatMap(({ position, changes }) => {
      // Each change as the filters read it and as a delivery shows it, made once for all webhooks.
      const offered = changes.map((change) => ({
        filtered: { ...change, category: categories.get(change.companySlug) },
        view: pricingChangeView(change),
      }));
      return webhooks.flatMap(({ webhook, start }) => {
        if (compare(position, start) <= 0) return [];
        const wanted = offered.filter(({ filtered }) => passesFilters(webhook, filtered));
        if (wanted.length === 0) return [];
        const id = `${webhook.id}_${position.transactionId}_${position.seq}`;
        const data: WebhookJobData = {
          webhookId: webhook.id,
          payload: {
            id,
            type: WEBHOOK_JOB_NAME,
            webhook_id: webhook.id,
            changes: wanted.map(({ view }) => view),
          },
        };
        return [{ name: WEBHOOK_JOB_NAME, data, opts: { jobId: id } }];
      });
    });
    if (jobs.length > 0) await this.queue!.addBulk(jobs);
    await this.webhooks.advanceDispatch(state, extractions.at(-1)!.position);
    // Moved or not (another dispatcher moved first, or a webhook was registered), look again.
    return true;
  }
}

/** A webhook with where it starts in the feed. */
function subscription(webhook: WebhookEntity) {
  return {
    webhook,
    start: { transactionId: webhook.startTransactionId, seq: Number(webhook.startSeq) },
  };
}

/** Rows in feed order, as the extractions they belong to. */
function groupByExtraction(
  rows: PricingChangeEntity[],
): { position: LogPosition; changes: PricingChangeEntity[] }[] {
  const groups: { position: LogPosition; changes: PricingChangeEntity[] }[] = [];
  for (const row of rows) {
    const position = { transactionId: String(row.eventTransactionId), seq: Number(row.eventSeq) };
    const last = groups.at(-1);
    if (last && compare(last.position, position) === 0) last.changes.push(row);
    else groups.push({ position, changes: [row] });
  }
  return groups;
}
