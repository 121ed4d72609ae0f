/** The longest wait a burst refusal asks for (its bucket refills one unit in 1/limit seconds). */
const BURST_WAIT_MS = 1_000;

/**
 * Sends a request again after a burst refusal, as a well-behaved client does: once the moment
 * its 429 names (`details.reset_at`) has come. A 429 of the hourly window or the credits, which
 * name a later moment, is answered as it is. Tests run at the limits users get.
 */
export async function pastBurstLimit(send: () => Promise<Response>): Promise<Response> {
  for (;;) {
    const response = await send();
    if (response.status !== 429) return response;
    const body = (await response.clone().json()) as { details?: { reset_at?: string } };
    const waitMs = Date.parse(body.details?.reset_at ?? '') - Date.now();
    if (!(waitMs <= BURST_WAIT_MS)) return response;
    await new Promise((resolve) => setTimeout(resolve, Math.max(waitMs, 0) + 5));
  }
}
