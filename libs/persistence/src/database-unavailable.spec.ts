import { QueryFailedError } from 'typeorm';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable, isTransientDatabaseError } from './database-unavailable.js';

/** What node-postgres raises: an Error with the server's SQLSTATE, or a socket error's code. */
function pgError(message: string, code?: string): Error {
  return Object.assign(new Error(message), code === undefined ? {} : { code });
}

const failedQuery = (driverError: Error) => new QueryFailedError('SELECT 1', [], driverError);

describe('isDatabaseUnavailable', () => {
  it.each([
    [
      'a refused connection (server down)',
      pgError('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
    ],
    ['a reset connection', pgError('read ECONNRESET', 'ECONNRESET')],
    [
      'a session ended by a fast shutdown (57P01)',
      failedQuery(pgError('terminating connection due to administrator command', '57P01')),
    ],
    ['a server starting up (57P03)', pgError('the database system is starting up', '57P03')],
    ['a connection exception (08006)', pgError('connection failure', '08006')],
    [
      'a connection cut under a query (no code)',
      failedQuery(pgError('Connection terminated unexpectedly')),
    ],
    [
      'a client the pool could not connect in time',
      pgError('timeout exceeded when trying to connect'),
    ],
    [
      'a SQLite database locked by another process past the busy timeout',
      failedQuery(pgError('database is locked', 'SQLITE_BUSY')),
    ],
    [
      'a SQLite snapshot another connection moved past (SQLITE_BUSY_SNAPSHOT)',
      failedQuery(pgError('database is locked', 'SQLITE_BUSY_SNAPSHOT')),
    ],
  ])('is true for %s', (_case, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation (23505)', failedQuery(pgError('duplicate key value', '23505'))],
    ['a missing table (42P01)', failedQuery(pgError('relation "x" does not exist', '42P01'))],
    [
      'a SQLite constraint',
      failedQuery(pgError('UNIQUE constraint failed', 'SQLITE_CONSTRAINT_UNIQUE')),
    ],
    ['an error of the code itself', new TypeError('cannot read properties of undefined')],
    ['something that is not an error', null],
  ])('is false for %s', (_case, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

describe('isTransientDatabaseError', () => {
  it.each([
    ['an unavailable database', pgError('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['a serialization failure (40001)', failedQuery(pgError('could not serialize', '40001'))],
    ['a deadlock (40P01)', failedQuery(pgError('deadlock detected', '40P01'))],
    ['a lock not available (55P03)', failedQuery(pgError('could not obtain lock', '55P03'))],
    ['a statement timeout (57014)', failedQuery(pgError('canceling statement', '57014'))],
    ['a full disk (53100)', failedQuery(pgError('could not extend file', '53100'))],
    ['a server out of memory (53200)', failedQuery(pgError('out of memory', '53200'))],
    ['an I/O error (58030)', failedQuery(pgError('could not read block', '58030'))],
    ['a full SQLite disk', failedQuery(pgError('database or disk is full', 'SQLITE_FULL'))],
    ['a SQLite I/O error', failedQuery(pgError('disk I/O error', 'SQLITE_IOERR_WRITE'))],
  ])('is true for %s', (_case, error) => {
    expect(isTransientDatabaseError(error)).toBe(true);
  });

  it.each([
    ['a unique violation (23505)', failedQuery(pgError('duplicate key value', '23505'))],
    ['a value out of range (22003)', failedQuery(pgError('integer out of range', '22003'))],
    [
      'a SQLite constraint',
      failedQuery(pgError('NOT NULL constraint failed', 'SQLITE_CONSTRAINT')),
    ],
    ['an error of the code itself', new TypeError('cannot read properties of undefined')],
  ])('is false for %s: the statement was refused on its merits', (_case, error) => {
    expect(isTransientDatabaseError(error)).toBe(false);
  });
});
