import { Module } from '@nestjs/common';
import { StatusStore } from './status-store';

/**
 * The status table's store on its own, for the modules whose records carry a status (orders,
 * batches): StatusesModule imports those modules (it counts and moves their records), so they
 * cannot import it back.
 */
@Module({ providers: [StatusStore], exports: [StatusStore] })
export class StatusStoreModule {}
