/** The natural key is already recorded with other content; retrying cannot help. */
export class RecordConflictError extends Error {
  override readonly name = 'RecordConflictError';
}
