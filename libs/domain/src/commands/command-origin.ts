/** Where a command came from; copied into the metadata of the events it appends. */
export interface CommandOrigin {
  batchId: string | null;
  requestId: string | null;
  jobId: string | null;
}
