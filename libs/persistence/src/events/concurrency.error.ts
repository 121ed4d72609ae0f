/** Another writer appended to the stream first; re-read the stream and decide again. */
export class StreamConcurrencyError extends Error {
  override readonly name = 'StreamConcurrencyError';
}
