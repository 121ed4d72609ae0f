import { Module } from '@nestjs/common';
import { ConversionTargets } from './conversion-targets.js';

/** Converting pricing answers with the exchange rates pushed as records. */
@Module({
  providers: [ConversionTargets],
  exports: [ConversionTargets],
})
export class CurrencyModule {}
