import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { startService, type ServiceProcess } from './service.js';

/** What a restart did: which process went, when (seconds into the run), and how long until its successor answered. */
export interface Restart {
  killed: string;
  started: string;
  atSeconds: number;
  downSeconds: number;
}

/** How long a process taken out of rotation gets to answer what it holds before it is killed. */
const DRAIN_MS = 15_000;

const running = (service: ServiceProcess) =>
  service.child.exitCode === null && service.child.signalCode === null;

/**
 * Several API and worker processes on one environment, as a deployment runs them: requests go to
 * the APIs in turn (what the reverse proxy does), and one of each can be killed and replaced
 * during the run. An exit the fleet did not cause is reported to `onUnexpectedExit`.
 */
export class Fleet {
  /** Every process started, in order, the replaced ones included (their memory is in the report). */
  readonly started: ServiceProcess[] = [];
  private readonly rotation: ServiceProcess[] = [];
  private readonly workers: ServiceProcess[] = [];
  private readonly inFlight = new Map<ServiceProcess, number>();
  private readonly killedOnPurpose = new Set<ServiceProcess>();
  private turn = 0;
  private stopping = false;

  private constructor(
    private readonly env: Record<string, string>,
    private readonly onUnexpectedExit: (service: ServiceProcess, reason: string) => void,
  ) {}

  static async start(
    env: Record<string, string>,
    counts: { apis: number; workers: number },
    onUnexpectedExit: (service: ServiceProcess, reason: string) => void,
  ): Promise<Fleet> {
    const fleet = new Fleet(env, onUnexpectedExit);
    try {
      const apis = Array.from({ length: counts.apis }, (_, index) =>
        fleet.launch('api', `api-${index + 1}`),
      );
      const workers = Array.from({ length: counts.workers }, (_, index) =>
        fleet.launch('worker', `worker-${index + 1}`),
      );
      await Promise.all([...apis, ...workers]);
    } catch (error) {
      await fleet.stop();
      throw error;
    }
    return fleet;
  }

  /** The API the next request goes to, in turn among those in rotation; count it in flight. */
  pickApi(): ServiceProcess {
    const api = this.rotation[this.turn++ % this.rotation.length]!;
    this.inFlight.set(api, (this.inFlight.get(api) ?? 0) + 1);
    return api;
  }

  /** The request sent to `api` by pickApi() has its answer (or failed). */
  answered(api: ServiceProcess): void {
    this.inFlight.set(api, (this.inFlight.get(api) ?? 1) - 1);
  }

  /** Any API in rotation, for requests outside the load. */
  get anyApi(): ServiceProcess {
    return this.rotation[0]!;
  }

  get liveApis(): ServiceProcess[] {
    return this.rotation.filter(running);
  }

  get liveWorkers(): ServiceProcess[] {
    return this.workers.filter(running);
  }

  /** A worker crashes (SIGKILL, jobs in hand) and a new one starts in its place. */
  async replaceWorker(since: number): Promise<Restart> {
    const victim = this.workers.shift()!;
    const atSeconds = (performance.now() - since) / 1000;
    const down = performance.now();
    await this.kill(victim);
    const successor = await this.launch('worker', `${victim.name}'`);
    return restart(victim, successor, atSeconds, down);
  }

  /**
   * An API leaves the rotation (as the proxy's health check takes it out), answers what it
   * holds, is killed (SIGKILL), and a new one joins the rotation once it answers.
   */
  async replaceApi(since: number): Promise<Restart> {
    const victim = this.rotation.shift()!;
    const atSeconds = (performance.now() - since) / 1000;
    const down = performance.now();
    const drainBy = Date.now() + DRAIN_MS;
    while ((this.inFlight.get(victim) ?? 0) > 0 && Date.now() < drainBy) await sleep(20);
    await this.kill(victim);
    const successor = await this.launch('api', `${victim.name}'`);
    return restart(victim, successor, atSeconds, down);
  }

  /** Stops every process still running (SIGTERM), answering those whose exit was not clean. */
  async stop(): Promise<string[]> {
    this.stopping = true;
    const unclean: string[] = [];
    for (const service of this.started) {
      if (!running(service)) continue;
      await service.stop();
      if (service.child.exitCode !== 0) {
        unclean.push(
          `${service.name} exited with code ${service.child.exitCode} ` +
            `(signal ${service.child.signalCode}) on SIGTERM`,
        );
      }
    }
    return unclean;
  }

  private async launch(kind: 'api' | 'worker', name: string): Promise<ServiceProcess> {
    const service = await startService(kind, this.env, name);
    this.started.push(service);
    (kind === 'api' ? this.rotation : this.workers).push(service);
    service.child.once('exit', (code, signal) => {
      if (this.stopping || this.killedOnPurpose.has(service)) return;
      this.onUnexpectedExit(service, `exited (code ${code}, signal ${signal})`);
    });
    return service;
  }

  private async kill(service: ServiceProcess): Promise<void> {
    this.killedOnPurpose.add(service);
    if (!running(service)) return;
    const exited = once(service.child, 'exit');
    service.child.kill('SIGKILL');
    await exited;
  }
}

function restart(
  victim: ServiceProcess,
  successor: ServiceProcess,
  atSeconds: number,
  down: number,
): Restart {
  return {
    killed: victim.name,
    started: successor.name,
    atSeconds,
    downSeconds: (performance.now() - down) / 1000,
  };
}
