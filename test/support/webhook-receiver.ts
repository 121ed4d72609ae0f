import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a webhook receiver was sent, and how it answered (0: the connection was cut). */
export interface Delivery {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  answered: number;
}

/**
 * A webhook receiver: records every request, and answers the first `failures` of them badly
 * (503s, then a connection cut without an answer) before it takes the rest with 204.
 */
export class Receiver {
  readonly deliveries: Delivery[] = [];
  private readonly server: Server;
  private failuresLeft: number;

  constructor(failures: number) {
    this.failuresLeft = failures;
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const failing = this.failuresLeft > 0;
        this.failuresLeft -= 1;
        const answered = !failing ? 204 : this.failuresLeft === 0 ? 0 : 503;
        this.deliveries.push({
          path: request.url ?? '',
          headers: request.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          answered,
        });
        if (answered === 0) request.socket.destroy();
        else response.writeHead(answered).end();
      });
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((ready) => this.server.listen(0, '127.0.0.1', ready));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  taken(path: string): Delivery[] {
    return this.deliveries.filter(
      (delivery) => delivery.path === path && delivery.answered === 204,
    );
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((closed) => this.server.close(() => closed()));
  }
}
