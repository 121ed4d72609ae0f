/** Errors of a database that is down, restarting, out of reach, or (SQLite) locked. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * SQLite: another process (a rebuild, say) held the lock past the busy timeout, with or without
 * an extended code (SQLITE_BUSY_SNAPSHOT...).
 */
const SQLITE_LOCKED = /^SQLITE_(BUSY|LOCKED)(_|$)/;

/**
 * PostgreSQL's SQLSTATEs for "not now": class 08 (connection exception), 57P01 admin shutdown,
 * 57P02 crash shutdown, 57P03 cannot connect now (starting up, shutting down, recovering),
 * 53300 too many connections.
 */
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[123]|53300)$/;

/** What node-postgres says when the server went away under a client (it carries no code). */
const DROPPED_CONNECTION =
  /^(Connection terminated|Client has encountered a connection error|Client was closed|timeout exceeded when trying to connect)/;

/**
 * True when the database could not be reached or ended the session on its own account (down,
 * restarting, shutting down, a connection cut; on SQLite, locked by another process past the
 * busy timeout): the statement failed through no fault of what
 * it asked, and the same work may succeed once the database is back. A statement the database
 * refused on its merits (a constraint, a missing table) is not this. TypeORM passes connection
 * errors through as they are and wraps a failed query in a QueryFailedError with the driver's
 * error beside it, so both are looked at.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  return errorParts(error).some(({ code, message }) => {
    if (
      typeof code === 'string' &&
      (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code) || SQLITE_LOCKED.test(code))
    ) {
      return true;
    }
    return typeof message === 'string' && DROPPED_CONNECTION.test(message);
  });
}

/** PostgreSQL's SQLSTATE of a cancelled statement: its statement timeout, or an operator. */
const CANCELLED = '57014';

/**
 * Codes of a statement that lost a race or ran short of a resource, not refused on its merits.
 * PostgreSQL: 40001 serialization, 40P01 deadlock, 55P03 lock not available, 57014 cancelled
 * (a statement timeout, an operator), class 53 (disk full, out of memory...), class 58 (I/O).
 * SQLite: disk full, out of memory, I/O errors.
 */
const NOT_ITS_FAULT = /^(40001|40P01|55P03|57014|53...|58...|SQLITE_(FULL|NOMEM|IOERR)(_.*)?)$/;

/**
 * True when the same statement may well succeed if run again: the database was unavailable, or
 * the statement lost a race with another transaction or ran short of a resource. Anything else
 * was refused on its merits.
 */
export function isTransientDatabaseError(error: unknown): boolean {
  return (
    isDatabaseUnavailable(error) ||
    errorParts(error).some(({ code }) => typeof code === 'string' && NOT_ITS_FAULT.test(code))
  );
}

/**
 * True when a statement waited for the database past its statement timeout (a lock another
 * session holds, a stalled server), or an operator cancelled it: for a request, the database is
 * not answering in time (503), though a worker may simply try again.
 */
export function isStatementCancelled(error: unknown): boolean {
  return errorParts(error).some(({ code }) => code === CANCELLED);
}

/** The error and, for a QueryFailedError, the driver's error beside it. */
function errorParts(error: unknown): { code?: unknown; message?: unknown }[] {
  const candidates = [error, (error as { driverError?: unknown } | null)?.driverError];
  return candidates.map((candidate) => (candidate ?? {}) as { code?: unknown; message?: unknown });
}
