import { Module } from '@nestjs/common';
import { CredentialsModule } from '../credentials/credentials.module';
import { REQUEST_REPLAYS } from '../hydra/actions/request-replays';
import { RETENTION_RULES } from '../retention/retention-rule';
import { Idempotency } from './idempotency.service';
import { IDEMPOTENCY_RETENTION, IdempotencyStore } from './idempotency-store';

/** `Idempotency-Key` replays of declared POSTs (README "API conventions"; ./README.md). */
@Module({
  imports: [CredentialsModule],
  providers: [
    IdempotencyStore,
    Idempotency,
    { provide: REQUEST_REPLAYS, useExisting: Idempotency },
    { provide: RETENTION_RULES, useValue: IDEMPOTENCY_RETENTION },
  ],
})
export class IdempotencyModule {}
