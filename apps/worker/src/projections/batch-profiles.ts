import {
  CompanyProfileChanged,
  CompanyRegistered,
  type CompanyProfile,
  type DecodedEvent,
} from '#app/domain';

type CompanyEvent = Extract<
  DecodedEvent,
  { type: typeof CompanyRegistered.TYPE | typeof CompanyProfileChanged.TYPE }
>;

/**
 * The company profiles of a batch of events, for a projector that keeps its own copy of them:
 * the companies registered in the batch, each as the batch leaves it, and the latest profile of
 * each company registered before the batch whose profile changed in it.
 */
export class BatchProfiles {
  readonly registered = new Map<string, CompanyProfile>();
  readonly changed = new Map<string, CompanyProfile>();

  add({ type, payload }: CompanyEvent): void {
    const target =
      type === CompanyRegistered.TYPE || this.registered.has(payload.slug)
        ? this.registered
        : this.changed;
    target.set(payload.slug, payload);
  }
}
