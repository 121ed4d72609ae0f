import { Module } from '@nestjs/common';
import { AnswerCache } from './answer-cache.js';

/** The answers the read lane keeps (http-app.ts sets the lane up ahead of Nest's routes). */
@Module({
  providers: [AnswerCache],
  exports: [AnswerCache],
})
export class ReadLaneModule {}
