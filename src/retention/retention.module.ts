import { Module } from '@nestjs/common';
import { MediaModule } from '../media/media.module';
import { RetentionSweeper } from './retention-sweeper';

/** Deletes finished records once they are older than their RETENTION_DAYS_* (rules in retention-rules.ts). */
@Module({
  imports: [MediaModule],
  providers: [RetentionSweeper],
  exports: [RetentionSweeper],
})
export class RetentionModule {}
