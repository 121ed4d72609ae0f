import { Injectable } from '@nestjs/common';
import {
  conversionTargetBetween,
  conversionTargetFor,
  type ConversionTarget,
  type PricingDocument,
} from '#app/domain';
import { ExchangeRateReader } from '#app/persistence';

/**
 * The target a `currency=` parameter converts into, with the rates the documents at hand
 * need: those between it and the currencies their charges are in, read once per request.
 */
@Injectable()
export class ConversionTargets {
  constructor(private readonly rates: ExchangeRateReader) {}

  forDocuments(currency: string, documents: Iterable<PricingDocument>): Promise<ConversionTarget> {
    return this.forPlans(
      currency,
      [...documents].flatMap((document) => document.plans),
    );
  }

  /** The same for plans on their own (the plan search's). */
  forPlans(
    currency: string,
    plans: Iterable<PricingDocument['plans'][number]>,
  ): Promise<ConversionTarget> {
    return conversionTargetFor(currency, plans, (target, currencies) =>
      this.rates.ratesFor(target, currencies),
    );
  }

  /**
   * The same for figures already reduced to their currencies (the price index's, which reads
   * them again when a sample meets a currency it had not).
   */
  forCurrencies(currency: string, currencies: Iterable<string>): Promise<ConversionTarget> {
    return conversionTargetBetween(currency, currencies, (target, others) =>
      this.rates.ratesFor(target, others),
    );
  }
}
