import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import {
  ipLiteral,
  isPublicAddress,
  notPublicAddress,
  publicOnlyLookup,
} from './public-address.js';

interface WebhookRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  /** Lifts the public-address rule (development and tests). */
  allowPrivate: boolean;
}

/** A delivery the receiver did not take: its status, or why no answer came. */
export class DeliveryFailed extends Error {}

/** How much of a receiver's answer is read: enough to drain it, never the whole of a huge one. */
const MAX_ANSWER_BYTES = 64 * 1024;

const lookupPublicOnly = publicOnlyLookup();

/**
 * POSTs a delivery and resolves with the receiver's 2xx status; anything else rejects with
 * DeliveryFailed. Redirects are not followed (their target was never checked), and the
 * connection only ever reaches a public address unless `allowPrivate` is set.
 */
export function sendWebhook({
  url,
  body,
  headers,
  timeoutMs,
  allowPrivate,
}: WebhookRequest): Promise<number> {
  const target = new URL(url);
  const literal = ipLiteral(target.hostname);
  // Node connects to an IP literal without a lookup, so the lookup guard alone would not see it.
  if (!allowPrivate && literal && !isPublicAddress(literal)) {
    return Promise.reject(new DeliveryFailed(notPublicAddress(literal)));
  }
  const options: RequestOptions = {
    method: 'POST',
    headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
    timeout: timeoutMs,
    ...(allowPrivate ? {} : { lookup: lookupPublicOnly }),
  };
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(target, options, (response) => {
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_ANSWER_BYTES) response.destroy();
      });
      const settle = () => {
        const status = response.statusCode ?? 0;
        if (status >= 200 && status < 300) resolve(status);
        else reject(new DeliveryFailed(`the receiver answered ${status}`));
      };
      response.on('end', settle);
      response.on('close', settle);
      response.on('error', () => undefined);
    });
    // One deadline for the whole exchange, not only for silence on the socket.
    const deadline = setTimeout(
      () => request.destroy(new DeliveryFailed(`no answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    request.on('close', () => clearTimeout(deadline));
    request.on('timeout', () =>
      request.destroy(new DeliveryFailed(`no answer within ${timeoutMs} ms`)),
    );
    request.on('error', (error) =>
      reject(error instanceof DeliveryFailed ? error : new DeliveryFailed(error.message)),
    );
    request.end(body);
  });
}
