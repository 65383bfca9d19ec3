import { Module } from '@nestjs/common';
import { TrackingPagesModule } from '../tracking-pages/tracking-pages.module';
import { DNS_LOOKUP, NodeDnsLookup } from './dns-lookup';
import { DomainsController } from './domains.controller';
import { DomainVerification } from './domain-verification';
import { DomainVerificationStore } from './domain-verification-store';
import { NodeTlsProbe, TLS_PROBE } from './tls-probe';

/** Custom tracking page domains: DNS verification (POST /domain/verify). */
@Module({
  imports: [TrackingPagesModule],
  controllers: [DomainsController],
  providers: [
    DomainVerification,
    DomainVerificationStore,
    { provide: DNS_LOOKUP, useClass: NodeDnsLookup },
    { provide: TLS_PROBE, useFactory: () => new NodeTlsProbe() },
  ],
})
export class DomainsModule {}
