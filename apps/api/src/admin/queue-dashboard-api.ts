import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ErrorCode } from 'bullmq';
import type { FastifyRequest } from 'fastify';
import type { QueryValue } from '../http/query-declaration.js';
import { integerParameter, optionalText } from '../http/query-parameters.js';
import { ApiError } from '../errors/api-error.js';
import { describeError } from '../errors/error-body.filter.js';
import { DASHBOARD_PATH } from './dashboard-session.js';

/**
 * bull-board's JSON API (/v1/admin/queues/api/*) as a route of this service: its input is
 * checked before bull-board reads it, and its own error answers are told in the documented
 * error shape. bull-board turns some bad input into a 500 (a NUL character breaks the parsing
 * of its own validation messages, `activeQueue` is percent-decoded a second time, an offset
 * past what Redis reads as an integer fails its script) and answers the rest in a shape of its
 * own, `{"error": {"key": ...}}`, which its page translates.
 */

const API_PREFIX = `${DASHBOARD_PATH}/api/`;

/** The most jobs a page lists: the board's own settings offer no more. */
const MAX_JOBS_PER_PAGE = 300;
/** Past this page the offset of its first job would not be an exact integer any more. */
const MAX_PAGE = Math.floor(Number.MAX_SAFE_INTEGER / MAX_JOBS_PER_PAGE);
/** Text is checked for what breaks bull-board; the URL and body limits bound its length. */
const ANY_LENGTH = Infinity;

/** What the board serves: its queues, and the statuses it lists jobs by. */
export interface BoardContents {
  queueNames: string[];
  /** Every status the board lists, `latest` included. */
  statuses: string[];
  /** The statuses a job can be in, which `clean` takes. */
  jobStatuses: string[];
}

/** By the route it reached, not the URL as sent: the router decodes `%61pi` as `api`. */
export function isDashboardApi(request: FastifyRequest): boolean {
  return request.routeOptions.url?.startsWith(API_PREFIX) ?? false;
}

/** Throws the 400 of a request to the board's API that bull-board must not see. */
export function checkDashboardApiRequest(request: FastifyRequest, board: BoardContents): void {
  checkQuery(request.query as Record<string, QueryValue> | undefined, board);
  checkPathParameters(request, board);
  checkBody(request.body);
}

function checkQuery(query: Record<string, QueryValue> = {}, board: BoardContents): void {
  for (const [name, value] of Object.entries(query)) optionalText(name, value, ANY_LENGTH);
  oneOf('activeQueue', query.activeQueue, board.queueNames, 'queue');
  oneOf('queueName', query.queueName, board.queueNames, 'queue');
  oneOf('status', query.status, board.statuses, 'status');
  integerParameter('page', nonEmpty(query.page), { fallback: 1, min: 1, max: MAX_PAGE });
  integerParameter('jobsPerPage', nonEmpty(query.jobsPerPage), {
    fallback: 1,
    min: 1,
    max: MAX_JOBS_PER_PAGE,
  });
}

function checkPathParameters(request: FastifyRequest, board: BoardContents): void {
  const parameters = (request.params ?? {}) as Record<string, string>;
  for (const [name, value] of Object.entries(parameters)) optionalText(name, value, ANY_LENGTH);
  // bull-board cleans any status it is given, an unknown one included, and answers 200.
  if (request.routeOptions.url?.endsWith('/clean/:queueStatus')) {
    oneOf('queueStatus', parameters.queueStatus, board.jobStatuses, 'status');
  }
}

/** bull-board, like the query string, treats an empty value as no value. */
function nonEmpty(value: QueryValue): QueryValue {
  return value === '' ? undefined : value;
}

function oneOf(name: string, value: QueryValue, valid: string[], noun: string): void {
  const text = optionalText(name, value, ANY_LENGTH);
  if (text === undefined || valid.includes(text)) return;
  throw new ApiError(400, 'INVALID_PARAMETER', `Unknown ${noun}: ${text}`, {
    parameter: name,
    provided: text,
    valid_values: valid,
  });
}

/**
 * Body fields (job data and options, limits, delays): numbers Redis and BullMQ read as they
 * were meant. (The body parser refused a NUL character, and bounded the nesting.)
 */
function checkBody(body: unknown): void {
  const pending: [unknown, string][] = [[body, '']];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [value, path] = next;
    if (typeof value === 'number' && Math.abs(value) > Number.MAX_SAFE_INTEGER) {
      const expected = `a number from -${Number.MAX_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER}`;
      throw new ApiError(400, 'INVALID_PARAMETER', `${path || 'body'} must be ${expected}`, {
        parameter: path || 'body',
        provided: value,
        expected,
      });
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => pending.push([item, `${path}[${index}]`]));
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        pending.push([item, path ? `${path}.${key}` : key]);
      }
    }
  }
}

/** bull-board's error body: a translation key for its page, with the key's parameters. */
interface BullBoardError {
  error: { key: string; options?: Record<string, unknown> };
}

/** bull-board's English texts, which its page would show for each key. */
const ENGLISH: Record<string, Record<string, string>> = JSON.parse(
  readFileSync(
    join(
      dirname(createRequire(import.meta.url).resolve('@bull-board/ui/package.json')),
      'dist/static/locales/en-US/messages.json',
    ),
    'utf8',
  ),
);

/**
 * An error answer of bull-board (its JSON text) as the error it describes, in English; null
 * when the payload is not one.
 */
export function bullBoardRefusal(status: number, payload: unknown): ApiError | null {
  if (typeof payload !== 'string' || status < 400) return null;
  let body: Partial<BullBoardError>;
  try {
    body = JSON.parse(payload) as Partial<BullBoardError>;
  } catch {
    return null;
  }
  if (typeof body.error?.key !== 'string') return null;
  const key = body.error.key;
  const [section = '', name = ''] = key.split('.');
  const template = ENGLISH[section]?.[name] ?? key;
  const options = body.error.options ?? {};
  const message = template.replace(/\{\{(\w+)\}\}/g, (_match, option: string) =>
    String(options[option] ?? ''),
  );
  return new ApiError(status, name, message, Object.keys(options).length > 0 ? options : undefined);
}

/**
 * What a bull-board handler threw, when BullMQ threw it about the request rather than about
 * itself: a job that is not in the state the command needs, or gone meanwhile (BullMQ's coded
 * errors), or a job to add whose options it cannot take. BullMQ checks a few options and
 * hands the rest to its Lua script, which fails on a wrong type (`"delay": true`); the options
 * are all that varies on that route, so whatever fails there, Redis being away aside, is them.
 * Null for anything else, which stays a 503 or a 500.
 */
export function bullMqRefusal(request: FastifyRequest, error: unknown): ApiError | null {
  // Redis away, a body Fastify could not parse: described as they are.
  if (!(error instanceof Error) || describeError(error).status !== 500) return null;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'number' && ErrorCode[code] !== undefined) {
    const status = code === ErrorCode.JobNotExist ? 404 : 400;
    return new ApiError(status, ErrorCode[code], error.message);
  }
  if (request.routeOptions.url?.endsWith('/:queueName/add')) {
    // BullMQ's own checks say what is wrong; a failing script says only where it failed.
    const reason = error.constructor === Error ? error.message : 'BullMQ cannot store them';
    return new ApiError(400, 'INVALID_JOB_OPTIONS', `The job's options were refused: ${reason}`);
  }
  return null;
}
