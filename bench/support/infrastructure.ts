import { RedisCluster } from '../../test/support/redis-cluster.js';
import { ReplicatedPostgres } from '../../test/support/replicated-postgres.js';
import type { ServiceContext } from './environment.js';

/** The servers a run uses: those it was given, or a Redis Cluster and a replica it started. */
export interface Infrastructure {
  context: ServiceContext;
  /** What each server is, for the report. */
  description: { redis: string; database: string };
  /** Stops what the run started. */
  stop(): Promise<void>;
}

/**
 * With `redisCluster`, a Redis Cluster of three masters and three replicas on loopback ports;
 * with `replica`, a PostgreSQL primary and a streaming replica (pg_basebackup -R) in temporary
 * directories, replacing `given.databaseUrl`. Both go when the run stops them.
 */
export async function startInfrastructure(
  given: ServiceContext,
  { redisCluster, replica }: { redisCluster: boolean; replica: boolean },
): Promise<Infrastructure> {
  const started: Array<{ stop(): Promise<void> }> = [];
  const stop = async () => {
    for (const server of started.reverse()) await server.stop();
  };
  try {
    const context: ServiceContext = { ...given };
    const description = {
      redis: `one server (${given.redisUrl})`,
      database: given.databaseUrl === 'sqlite' ? 'SQLite' : 'one PostgreSQL server',
    };
    if (redisCluster) {
      const cluster = await RedisCluster.start();
      started.push(cluster);
      context.redisClusterNodes = cluster.nodes;
      description.redis = `a cluster of 3 masters and 3 replicas (${cluster.nodes})`;
    }
    if (replica) {
      const pair = await ReplicatedPostgres.start();
      started.push(pair);
      context.databaseUrl = pair.primaryUrl;
      context.databaseReadUrls = pair.replicaUrl;
      description.database = 'a PostgreSQL primary and one streaming replica';
    }
    return { context, description, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
