import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { assertAccess } from '../access/access-level';
import type { Principal } from '../access/principal';
import { AppConfig } from '../config/app-config';
import { ValidationError, ViolationCodes } from '../common/errors/api-errors';
import { isHostname } from '../tracking-pages/subdomain';
import { TrackingPageStore } from '../tracking-pages/tracking-page-store';
import { DNS_LOOKUP, DnsLookup, normalizeName } from './dns-lookup';
import { TXT_PREFIX, judgeDomain, txtProof } from './domain-check';
import type { DomainVerificationState } from './domain-verification.output';
import { DomainVerificationStore } from './domain-verification-store';
import type { DomainVerifyInput } from './domain-verify.input';
import { TLS_PROBE, TlsProbe } from './tls-probe';

/**
 * Checks the DNS of the custom domain of one of the caller's tracking pages and records the
 * check; the page's `domainEnabled` follows the verdict (a domain whose record goes is
 * disabled on the next check). Proof: a TXT record `_tracking-page.<domain>` holding the
 * page's own token (`judgeDomain`); the CNAME to CUSTOM_DOMAIN_CNAME_TARGET routes traffic
 * and is reported, but proves nothing. The answer says what to set up.
 *
 * Several pages may claim a domain; one holds it verified. A page proving it takes it from
 * the page that held it (the DNS owner has moved the record), under a per-domain lock.
 */
@Injectable()
export class DomainVerification {
  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    @Inject(DNS_LOOKUP) private readonly dns: DnsLookup,
    @Inject(TLS_PROBE) private readonly tls: TlsProbe,
    private readonly pages: TrackingPageStore,
    private readonly checks: DomainVerificationStore,
  ) {}

  async verify(principal: Principal, input: DomainVerifyInput): Promise<DomainVerificationState> {
    const domain = normalizeName(input.domain);
    if (!isHostname(domain))
      throw ValidationError.of(
        'domain',
        'This value is not a valid host name.',
        ViolationCodes.invalid,
      );
    // Pages of other tenants answer exactly like a domain no page uses.
    const pages = await this.pages.domainClaims(this.dataSource, domain, principal.workspaceIds);
    if (!pages.length)
      throw ValidationError.of(
        'domain',
        'None of your tracking pages uses this domain: set it as a tracking page domain first.',
        ViolationCodes.invalid,
      );
    const [cname, txt, addresses] = await Promise.all([
      this.dns.cname(domain),
      this.dns.txt(`${TXT_PREFIX}${domain}`),
      this.dns.addresses(domain),
    ]);
    const answers = { cname, txt, addresses };
    const target = this.config.customDomainCnameTarget;
    // The caller's page whose token the record holds, else the one they touched last.
    const page =
      pages.find((p) => judgeDomain(answers, p.domain_token, target).verified) ?? pages[0];
    assertAccess(principal, 'workspace:write', { workspaceId: page.workspace_id });
    const check = judgeDomain(answers, page.domain_token, target);
    const ssl =
      check.verified && addresses.length > 0
        ? await this.tls.validCertificate(domain, addresses[0])
        : false;
    const checkedAt = await this.dataSource.transaction(async (em) => {
      await this.checks.lockDomain(em, domain);
      await this.pages.recordDomainCheck(em, domain, page.id, check.verified);
      return this.checks.record(em, {
        workspaceId: page.workspace_id,
        trackingPageId: page.id,
        domain,
        accessible: check.accessible,
        ssl,
        verified: check.verified,
        method: check.method,
        records: answers,
        checkedBy: principal.userId,
      });
    });
    return {
      domain,
      trackingPage: `/tracking_pages/${page.id}`,
      accessible: check.accessible,
      cname: check.cname,
      ssl,
      verified: check.verified,
      method: check.method,
      checkedAt: checkedAt.toISOString(),
      expected: {
        cname: target ?? null,
        txt: { name: `${TXT_PREFIX}${domain}`, value: txtProof(page.domain_token) },
      },
    };
  }
}
