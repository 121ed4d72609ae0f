import { Logger } from '@nestjs/common';
import type { AppConfig } from '#app/config';
import { Cluster, Redis, type RedisOptions } from 'ioredis';

/** A connection to the configured Redis: one server, or a cluster client. */
export type RedisConnection = Redis | Cluster;

/** The options every connection of this service picks from; each means the same on a cluster. */
type RedisConnectionOptions = Pick<
  RedisOptions,
  | 'maxRetriesPerRequest'
  | 'commandTimeout'
  | 'autoResendUnfulfilledCommands'
  | 'lazyConnect'
  | 'enableAutoPipelining'
>;

/**
 * A connection to the configured Redis (REDIS_URL, or the cluster REDIS_CLUSTER_NODES names)
 * that reports an outage once when it starts and once when it ends, instead of one
 * unhandled-error stack per reconnection attempt.
 */
export function createRedisConnection(
  redis: AppConfig['redis'],
  name: string,
  options: RedisConnectionOptions = {},
): RedisConnection {
  const logger = new Logger(`Redis:${name}`);
  const connection = redis.clusterNodes
    ? clusterConnection(redis.clusterNodes, options, logger)
    : new Redis(redis.url, options);
  let down = false;
  connection.on('error', (error: Error) => {
    if (down) return;
    down = true;
    logger.warn(`unreachable (${error.message}); retrying`);
  });
  connection.on('ready', () => {
    if (!down) return;
    down = false;
    logger.log('reachable again');
  });
  return connection;
}

/**
 * Closes `connection` at shutdown: QUIT, so that the commands sent are answered first, unless
 * `now` (nothing it sent needs an answer, and a Redis that does not answer would hold a QUIT for
 * ever) or it never connected (lazyConnect: a QUIT would connect first); a QUIT refused (Redis
 * away) disconnects, or the client would go on reconnecting and keep the process alive.
 */
export async function closeRedisConnection(
  connection: RedisConnection,
  { now = false }: { now?: boolean } = {},
): Promise<void> {
  if (now || connection.status === 'wait') {
    connection.disconnect();
    return;
  }
  await connection.quit().catch(() => connection.disconnect());
}

/**
 * A cluster client: the options of a command's handling go to the connection of each node.
 * A node's connection never reconnects (the client finds the slot's new master instead), so a
 * command whose node went away fails with "Connection is closed."; the client sends it again
 * to the new master unless `autoResendUnfulfilledCommands` is false, as it would not be sent
 * again after a reconnection to a single server (it may have run).
 */
function clusterConnection(
  nodes: NonNullable<AppConfig['redis']['clusterNodes']>,
  { lazyConnect, enableAutoPipelining, ...nodeOptions }: RedisConnectionOptions,
  logger: Logger,
): Cluster {
  const cluster = new Cluster(nodes, {
    lazyConnect,
    enableAutoPipelining,
    redisOptions: nodeOptions,
    ...(nodeOptions.autoResendUnfulfilledCommands === false && { retryDelayOnFailover: 0 }),
  });
  // One line per node that fails, until the cluster takes it back (its slots move meanwhile).
  const failing = new Set<string>();
  cluster.on('node error', (error: Error, node: string) => {
    if (failing.has(node)) return;
    failing.add(node);
    logger.warn(`node ${node} unreachable (${error.message})`);
  });
  cluster.on('+node', (redis: Redis) => {
    failing.delete(`${redis.options.host}:${redis.options.port}`);
  });
  return cluster;
}

/** Redis answers errors with these when it cannot take a command for now. */
const REDIS_REFUSALS = /^(OOM|MISCONF|READONLY|BUSY|MASTERDOWN|LOADING|TRYAGAIN|CLUSTERDOWN) /;

/**
 * What the cluster client says when no node could tell it the slots, or a command was
 * redirected from node to node while slots moved (a failover) until it gave up.
 */
const CLUSTER_UNAVAILABLE =
  /^(Failed to refresh slots cache|None of startup nodes is available|Too many Cluster redirections)/;

/**
 * Redis cannot serve a command for now: unreachable (ioredis gave up, the connection closed),
 * stalled (the command timed out), or refusing it (out of memory, read-only replica, loading,
 * a cluster that is down or moving slots). ioredis rejects a closed connection, a timeout and
 * a cluster it cannot reach with a plain Error, so its message is all there is to recognise
 * them by; it is read here, beside the connection, and nowhere else.
 */
export function isRedisUnavailable(error: unknown): boolean {
  const { name, message } = (error ?? {}) as { name?: string; message?: string };
  return (
    name === 'MaxRetriesPerRequestError' ||
    name === 'ClusterAllFailedError' ||
    message === 'Connection is closed.' ||
    message === 'Command timed out' ||
    CLUSTER_UNAVAILABLE.test(message ?? '') ||
    (name === 'ReplyError' && REDIS_REFUSALS.test(message ?? ''))
  );
}
