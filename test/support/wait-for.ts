/** Polls `probe` until it returns a value that is not undefined, or fails after `timeoutMs`. */
export async function waitFor<T>(
  description: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 30_000,
  intervalMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    await new Promise((next) => setTimeout(next, intervalMs));
  }
  throw new Error(
    `timed out waiting for ${description}${lastError ? `: ${String(lastError)}` : ''}`,
  );
}
