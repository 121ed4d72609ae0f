import { createHmac } from 'node:crypto';

/**
 * The X-Signature header of a delivery: `t=<unix seconds>,v1=<hex HMAC-SHA256>` of
 * `<t>.<body>` under the webhook's secret. The timestamp is signed with the body, so a receiver
 * that refuses old timestamps cannot be sent a captured delivery again later (replay).
 */
export function signatureHeader(secret: string, body: string, timestampSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${timestampSeconds}.${body}`).digest('hex');
  return `t=${timestampSeconds},v1=${mac}`;
}
