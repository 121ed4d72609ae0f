import { Injectable } from '@nestjs/common';
import { ExchangeRateBook, type ConversionTarget, type PricingDocument } from '#app/domain';
import { ExchangeRateReader } from '#app/persistence';

/**
 * The target a `currency=` parameter converts into, with the rates the documents at hand
 * need: those between it and the currencies their charges are in, read once per request.
 */
@Injectable()
export class ConversionTargets {
  constructor(private readonly rates: ExchangeRateReader) {}

  async forDocuments(
    currency: string,
    documents: Iterable<PricingDocument>,
  ): Promise<ConversionTarget> {
    const currencies = new Set<string>();
    for (const document of documents) {
      for (const plan of document.plans) {
        for (const charge of plan.charges) {
          if (charge.currency !== currency) currencies.add(charge.currency);
        }
      }
    }
    const rates = await this.rates.ratesFor(currency, [...currencies]);
    return { currency, rates: new ExchangeRateBook(rates) };
  }
}
