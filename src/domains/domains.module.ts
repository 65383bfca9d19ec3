import { Module } from '@nestjs/common';
import { DNS_LOOKUP, NodeDnsLookup } from './dns-lookup';
import { DomainsController } from './domains.controller';
import { DomainVerification } from './domain-verification';
import { NodeTlsProbe, TLS_PROBE } from './tls-probe';

/** Custom tracking page domains: DNS verification (POST /domain/verify). */
@Module({
  controllers: [DomainsController],
  providers: [
    DomainVerification,
    { provide: DNS_LOOKUP, useClass: NodeDnsLookup },
    { provide: TLS_PROBE, useFactory: () => new NodeTlsProbe() },
  ],
})
export class DomainsModule {}
