import { Module } from '@nestjs/common';
import { ImmutableReadCache } from './immutable-read.cache.js';

/** The one cache of kept answers, shared by the read features and the lane ahead of Nest. */
@Module({
  providers: [ImmutableReadCache],
  exports: [ImmutableReadCache],
})
export class ImmutableReadModule {}
