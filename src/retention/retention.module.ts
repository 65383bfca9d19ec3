import { Module } from '@nestjs/common';
import { MediaModule } from '../media/media.module';
import { RetentionStore } from './retention-store';
import { RetentionSweeper } from './retention-sweeper';

/**
 * Deletes finished records once they are older than their RETENTION_DAYS_*: the rules every
 * module provides under RETENTION_RULES (retention-rule.ts).
 */
@Module({
  imports: [MediaModule],
  providers: [RetentionSweeper, RetentionStore],
  exports: [RetentionSweeper],
})
export class RetentionModule {}
