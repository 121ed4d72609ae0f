import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.js';
import { onOneConnection } from './redis-server.js';
import { waitFor } from './wait-for.js';

/*
 * A real Redis Cluster on loopback ports for tests and the soak script (no test-runner import
 * here): three masters with one replica each, from `redis-server` and `redis-cli` on PATH.
 */

const MASTERS = 3;
/** A node that misses pings this long counts as failed, and its replica takes over. */
const NODE_TIMEOUT_MS = 1_000;
const SETTLE_TIMEOUT_MS = 30_000;

/** Why no cluster can be started here (redis-server or redis-cli missing), or null. */
export function clusterUnavailableReason(): string | null {
  for (const tool of ['redis-server', 'redis-cli']) {
    const { error, status } = spawnSync(tool, ['--version'], { stdio: 'ignore' });
    if (error || status !== 0) return `${tool} is not on PATH (it comes with Redis 7)`;
  }
  return null;
}

/** One line of CLUSTER NODES: a node, its role, its master's id and the slots it serves. */
interface NodeLine {
  id: string;
  port: number;
  master: boolean;
  failed: boolean;
  masterId: string | null;
  slots: [number, number][];
}

function parseClusterNodes(text: string): NodeLine[] {
  return text
    .trim()
    .split('\n')
    .map((line) => {
      const [id, address, flags, masterId, , , , , ...slots] = line.split(' ');
      const flagList = flags!.split(',');
      return {
        id: id!,
        port: Number(/:(\d+)@/.exec(address!)![1]),
        master: flagList.includes('master'),
        failed: flagList.includes('fail') || flagList.includes('fail?'),
        masterId: masterId === '-' ? null : masterId!,
        // Slots being imported or migrated ("[...]") are not served yet.
        slots: slots
          .filter((range) => !range.startsWith('['))
          .map((range) => {
            const [from, to = from] = range.split('-').map(Number) as [number, number?];
            return [from, to] as [number, number];
          }),
      };
    });
}

class ClusterNode {
  private child: ChildProcess | null = null;

  constructor(
    readonly port: number,
    private readonly busPort: number,
    private readonly directory: string,
  ) {}

  start(): void {
    // Nothing on disk but the cluster's own state: a failover, not a restart, keeps the data.
    this.child = spawn(
      'redis-server',
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--dir',
        this.directory,
        '--save',
        '',
        '--appendonly',
        'no',
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        `nodes-${this.port}.conf`,
        '--cluster-port',
        String(this.busPort),
        '--repl-diskless-sync-delay',
        '0',
        '--cluster-node-timeout',
        String(NODE_TIMEOUT_MS),
        // DEBUG SLEEP stalls a node for a test, from loopback only.
        '--enable-debug-command',
        'local',
      ],
      { stdio: 'ignore' },
    );
  }

  /** Runs one command on this node alone. */
  async command(...args: string[]): Promise<unknown> {
    return onOneConnection(`redis://127.0.0.1:${this.port}`, (client) =>
      client.call(args[0]!, ...args.slice(1)),
    );
  }

  /** Whether it answers a PING within `ms`: a node asleep (DEBUG SLEEP) answers nothing. */
  async answersWithin(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const silence = new Promise<false>((done) => (timer = setTimeout(() => done(false), ms)));
    const answer = this.command('PING').then(
      () => true,
      () => false,
    );
    try {
      return await Promise.race([answer, silence]);
    } finally {
      clearTimeout(timer);
    }
  }

  async info(section: string): Promise<string> {
    return String(await this.command('INFO', section));
  }

  async nodes(): Promise<NodeLine[]> {
    return parseClusterNodes(String(await this.command('CLUSTER', 'NODES')));
  }

  get running(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** SIGKILL: a crash, not a clean shutdown. */
  async kill(): Promise<void> {
    const stopping = this.child;
    this.child = null;
    if (!stopping || stopping.exitCode !== null || stopping.signalCode !== null) return;
    const exited = once(stopping, 'exit');
    stopping.kill('SIGKILL');
    await exited;
  }
}

export class RedisCluster {
  private constructor(
    private readonly members: ClusterNode[],
    private readonly directory: string,
  ) {}

  /** Starts six nodes, makes them a cluster and waits until every node says it is ok. */
  static async start(): Promise<RedisCluster> {
    const directory = mkdtempSync(join(tmpdir(), 'pricing-redis-cluster-'));
    const ports = new Set<number>();
    while (ports.size < MASTERS * 4) ports.add(await freePort());
    const [...free] = ports;
    const members = Array.from(
      { length: MASTERS * 2 },
      (_, index) => new ClusterNode(free[2 * index]!, free[2 * index + 1]!, directory),
    );
    const cluster = new RedisCluster(members, directory);
    try {
      for (const member of members) member.start();
      await Promise.all(
        members.map((member) =>
          waitFor(`redis-server on ${member.port}`, async () =>
            (await member.command('PING')) === 'PONG' ? true : undefined,
          ),
        ),
      );
      await promisify(execFile)('redis-cli', [
        '--cluster',
        'create',
        ...members.map((member) => `127.0.0.1:${member.port}`),
        '--cluster-replicas',
        '1',
        '--cluster-yes',
      ]);
      await cluster.settled();
    } catch (error) {
      await cluster.stop();
      throw error;
    }
    return cluster;
  }

  /** REDIS_CLUSTER_NODES for this cluster: every node's host:port. */
  get nodes(): string {
    return this.members.map((member) => `127.0.0.1:${member.port}`).join(',');
  }

  /** The hash slot of `key` (its hash tag's, when it has one). */
  async slotOf(key: string): Promise<number> {
    return Number(await this.running()[0]!.command('CLUSTER', 'KEYSLOT', key));
  }

  /**
   * A replica of the master that serves `key`'s slot takes over by CLUSTER FAILOVER: the
   * master stops taking writes, the replica catches up with all of them, then the two swap.
   * Nothing the master acknowledged is lost. Returns once every node agrees on the new master
   * and the cluster is ok.
   */
  async failover(key: string): Promise<void> {
    const { master, replica } = await this.servingPair(key);
    await replica.command('CLUSTER', 'FAILOVER');
    await this.settled(
      (lines) => lines.find((line) => line.port === master.port)?.master === false,
    );
  }

  /**
   * Stalls the replica of the master that serves `key`'s slot for `seconds` (DEBUG SLEEP): it
   * takes no replication and acknowledges no write meanwhile. Returns once it sleeps, with
   * when it woke (Date.now()) to come, given once the cluster has settled again.
   */
  async stallReplica(key: string, seconds: number): Promise<{ woke: Promise<number> }> {
    const { replica } = await this.servingPair(key);
    const woke = replica.command('DEBUG', 'SLEEP', String(seconds)).then(async () => {
      const at = Date.now();
      await this.settled();
      return at;
    });
    // Awake, it answers a PING on loopback in well under a millisecond.
    await waitFor('the replica to sleep', async () =>
      (await replica.answersWithin(100)) ? undefined : true,
    );
    return { woke };
  }

  /**
   * SIGKILLs the master that serves `key`'s slot, a crash and not a handover: its replica
   * takes over once the other masters count it failed (NODE_TIMEOUT_MS) and elect it. Returns
   * once the replica serves the slot and the cluster is ok; the killed node stays down until
   * restartKilled().
   */
  async killMaster(key: string): Promise<void> {
    const { master, replica } = await this.servingPair(key);
    await master.kill();
    await this.settled(
      (lines) => lines.find((line) => line.port === replica.port)?.master === true,
    );
  }

  /**
   * Starts every killed node again with its cluster state file: each comes back empty, learns
   * that its slots have another master and becomes its replica. Returns once every one of them
   * has synced and the cluster is ok.
   */
  async restartKilled(): Promise<void> {
    const killed = this.members.filter((member) => !member.running);
    for (const member of killed) member.start();
    const ports = new Set(killed.map((member) => member.port));
    await this.settled((lines) =>
      lines.filter((line) => ports.has(line.port)).every((line) => !line.master && !line.failed),
    );
  }

  /** Kills every node and deletes their files. */
  async stop(): Promise<void> {
    await Promise.all(this.members.map((member) => member.kill()));
    rmSync(this.directory, { recursive: true, force: true });
  }

  private running(): ClusterNode[] {
    return this.members.filter((member) => member.running);
  }

  private member(port: number): ClusterNode {
    return this.members.find((member) => member.port === port)!;
  }

  /** The master serving `key`'s slot and a replica of it that is in sync. */
  private async servingPair(key: string): Promise<{ master: ClusterNode; replica: ClusterNode }> {
    const slot = await this.slotOf(key);
    const lines = await this.running()[0]!.nodes();
    const master = lines.find(
      (line) => line.master && line.slots.some(([from, to]) => from <= slot && slot <= to),
    )!;
    const replica = lines.find((line) => line.masterId === master.id && !line.failed)!;
    return { master: this.member(master.port), replica: this.member(replica.port) };
  }

  /**
   * Waits until every running node says the cluster is ok and sees all 16384 slots served by
   * masters that are up, every replica is linked to its master, and every node agrees with
   * `also`.
   */
  private async settled(also: (lines: NodeLine[]) => boolean = () => true): Promise<void> {
    const running = this.running();
    await waitFor(
      'the Redis Cluster to settle',
      async () => {
        for (const member of running) {
          const state = String(await member.command('CLUSTER', 'INFO'));
          if (!state.includes('cluster_state:ok')) return undefined;
          const lines = await member.nodes();
          const masters = lines.filter((line) => line.master && !line.failed);
          const served = masters.flatMap((line) => line.slots);
          const slots = served.reduce((sum, [from, to]) => sum + to - from + 1, 0);
          if (slots !== 16384 || !also(lines)) return undefined;
          const replication = await member.info('replication');
          if (replication.includes('role:slave') && !replication.includes('master_link_status:up'))
            return undefined;
        }
        return true;
      },
      SETTLE_TIMEOUT_MS,
      100,
    );
  }
}
