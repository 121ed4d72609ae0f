import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.js';

const execFileAsync = promisify(execFile);

/**
 * A PostgreSQL cluster of one test file's own (initdb into a temporary directory, trust
 * authentication, a free port), which the file may stop and start again on the same port
 * without disturbing the server other files share. Only for the PostgreSQL run.
 */
export class OwnPostgres {
  private running = false;

  private constructor(
    private readonly binDir: string,
    private readonly directory: string,
    readonly port: number,
    /** The OS user the server runs as: initdb and postgres refuse to run as root. */
    private readonly user: { name: string; uid: number; gid: number } | null,
  ) {}

  /** Initialises the cluster (not started). */
  static async create(): Promise<OwnPostgres> {
    const binDir = postgresBinDir();
    const directory = mkdtempSync(join(tmpdir(), 'pricing-pg-'));
    const user = process.getuid?.() === 0 ? osUser('postgres') : null;
    if (user) chownSync(directory, user.uid, user.gid);
    const cluster = new OwnPostgres(binDir, directory, await freePort(), user);
    // --no-sync: nothing here must survive the machine, only the server's own stops.
    await cluster.run('initdb', [
      '-D',
      cluster.dataDir,
      '-U',
      'postgres',
      '-A',
      'trust',
      '--no-sync',
    ]);
    return cluster;
  }

  /**
   * A streaming replica of `primary` (running): a base backup taken with `pg_basebackup -R`,
   * which writes the standby's connection to the primary; not started. Hot standby (PostgreSQL's
   * default) lets it answer reads.
   */
  static async replicaOf(primary: OwnPostgres): Promise<OwnPostgres> {
    const directory = mkdtempSync(join(tmpdir(), 'pricing-pg-replica-'));
    if (primary.user) chownSync(directory, primary.user.uid, primary.user.gid);
    const replica = new OwnPostgres(primary.binDir, directory, await freePort(), primary.user);
    // initdb's trust authentication covers replication connections from 127.0.0.1 too.
    await replica.run('pg_basebackup', [
      '-D',
      replica.dataDir,
      '-h',
      '127.0.0.1',
      '-p',
      String(primary.port),
      '-U',
      'postgres',
      '-X',
      'stream',
      '--no-sync',
      '-R',
    ]);
    return replica;
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  private get dataDir(): string {
    return join(this.directory, 'data');
  }

  private get logFile(): string {
    return join(this.directory, 'server.log');
  }

  /** Starts it (again, on the same port) and returns once it accepts connections. */
  async start(): Promise<void> {
    const options = [
      `-p ${this.port}`,
      '-c listen_addresses=127.0.0.1',
      `-c unix_socket_directories=${this.directory}`,
      // A stopped server's written WAL is still in the OS cache: fsync guards against power
      // loss, which these tests do not cause, and costs seconds on a busy disk.
      '-c fsync=off',
    ].join(' ');
    await this.run('pg_ctl', [
      '-D',
      this.dataDir,
      '-l',
      this.logFile,
      '-o',
      options,
      '-w',
      '-t',
      '60',
      'start',
    ]);
    this.running = true;
  }

  /**
   * `fast` ends every session (57P01 to the clients) and stops cleanly; `immediate` is a crash:
   * sessions are cut and the next start recovers from the WAL.
   */
  async stop(mode: 'fast' | 'immediate'): Promise<void> {
    if (!this.running) return;
    await this.run('pg_ctl', ['-D', this.dataDir, '-m', mode, '-w', '-t', '60', 'stop']);
    this.running = false;
  }

  /** The end of the server's log, for failure messages. */
  log(): string {
    return existsSync(this.logFile) ? readFileSync(this.logFile, 'utf8').slice(-4000) : '';
  }

  /** Stops it if it runs and deletes the cluster. */
  async remove(): Promise<void> {
    try {
      await this.stop('immediate');
    } finally {
      rmSync(this.directory, { recursive: true, force: true });
    }
  }

  /** Asynchronously: the test's own requests keep flowing while the server stops or starts. */
  private async run(program: string, args: string[]): Promise<void> {
    const path = join(this.binDir, program);
    const [command, commandArgs] = this.user
      ? ['runuser', ['-u', this.user.name, '--', path, ...args]]
      : [path, args];
    try {
      await execFileAsync(command, commandArgs, { timeout: 90_000 });
    } catch (error) {
      const output = (error as { stderr?: Buffer }).stderr?.toString() ?? '';
      throw new Error(`${program} ${args.at(-1)} failed: ${output}\n${this.log()}`);
    }
  }
}

/** Where initdb and pg_ctl are: pg_config's answer, else the newest Debian-style install. */
export function postgresBinDir(): string {
  try {
    const bindir = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
    if (existsSync(join(bindir, 'initdb'))) return bindir;
  } catch {
    // No pg_config (it comes with the client headers): look for the server packages instead.
  }
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((version) => existsSync(join(root, version, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) throw new Error('no PostgreSQL server binaries (initdb) found');
  return join(root, versions[0] as string, 'bin');
}

function osUser(name: string): { name: string; uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync('id', [flag, name], { encoding: 'utf8' }));
  return { name, uid: id('-u'), gid: id('-g') };
}
