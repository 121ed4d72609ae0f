import { type RedisConnection } from '#app/contracts';
import { Cluster } from 'ioredis';

/**
 * The keys matching `pattern` on the configured Redis. SCAN walks one server's keys, so on a
 * cluster it runs on every master.
 */
export async function keysMatching(
  connection: RedisConnection,
  pattern: string,
): Promise<string[]> {
  // A cluster knows its masters once it is ready; a command waits for that.
  await connection.ping();
  const servers = connection instanceof Cluster ? connection.nodes('master') : [connection];
  const keys: string[] = [];
  for (const server of servers) {
    for (let cursor = '0'; ;) {
      const [next, found] = await server.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      keys.push(...found);
      cursor = next;
      if (cursor === '0') break;
    }
  }
  return keys;
}

/** Deletes the keys matching `pattern`, one by one (on a cluster, a DEL stays in one slot). */
export async function deleteKeysMatching(
  connection: RedisConnection,
  pattern: string,
): Promise<void> {
  const keys = await keysMatching(connection, pattern);
  await Promise.all(keys.map((key) => connection.del(key)));
}
