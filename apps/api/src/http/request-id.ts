import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

// A client's id is echoed and logged: only short, plain tokens are taken as they are.
const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdFor(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && ACCEPTABLE_REQUEST_ID.test(given) ? given : randomUUID();
}
