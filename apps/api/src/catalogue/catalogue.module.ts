import { Module } from '@nestjs/common';
import { SlugResolver } from './slug-resolver.js';

/** What the catalogue's read features share: reading a `{slug}` path segment. */
@Module({
  providers: [SlugResolver],
  exports: [SlugResolver],
})
export class CatalogueModule {}
