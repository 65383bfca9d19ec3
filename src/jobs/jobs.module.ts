import { Global, Module } from '@nestjs/common';
import { JobQueue } from './job-queue';

/**
 * The durable job queue (pg-boss), for every module. Periodic tasks use @nestjs/schedule
 * (ScheduleModule.forRoot() in AppModule) and claim their rows with SKIP LOCKED.
 */
@Global()
@Module({
  providers: [JobQueue],
  exports: [JobQueue],
})
export class JobsModule {}
