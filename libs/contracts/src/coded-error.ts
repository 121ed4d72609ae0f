/**
 * An error a client can act on: an HTTP status, a stable code clients compare, a message and
 * details. The API renders any of them in the documented error body, whichever library threw
 * it; the command-line tool reports them.
 */
export class CodedError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}
