import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { assertAccess } from '../access/access-level';
import type { Principal } from '../access/principal';
import { AppConfig } from '../config/app-config';
import { ValidationError, ViolationCodes } from '../common/errors/api-errors';
import { isHostname } from '../tracking-pages/subdomain';
import { DNS_LOOKUP, DnsLookup, normalizeName } from './dns-lookup';
import { TXT_PREFIX, judgeDomain } from './domain-check';
import type { DomainVerificationState } from './domain-verification.output';
import type { DomainVerifyInput } from './domain-verify.input';
import { TLS_PROBE, TlsProbe } from './tls-probe';

/**
 * Checks the DNS of the custom domain of one of the caller's tracking pages and records the
 * check; the page's `domainEnabled` follows the verdict (a domain that stops pointing at us is
 * disabled on the next check). Proof: a CNAME to CUSTOM_DOMAIN_CNAME_TARGET, or a TXT record
 * `_tracking-page.<domain>` holding the page id. The answer says what to set up.
 */
@Injectable()
export class DomainVerification {
  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    @Inject(DNS_LOOKUP) private readonly dns: DnsLookup,
    @Inject(TLS_PROBE) private readonly tls: TlsProbe,
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
    const [page] = await this.dataSource.query(
      `SELECT id, workspace_id FROM tracking_page
        WHERE lower(domain) = $1 AND workspace_id = ANY($2::uuid[])`,
      [domain, principal.workspaceIds],
    );
    if (!page)
      throw ValidationError.of(
        'domain',
        'None of your tracking pages uses this domain: set it as a tracking page domain first.',
        ViolationCodes.invalid,
      );
    assertAccess(principal, 'workspace:write', { workspaceId: page.workspace_id });

    const [cname, txt, addresses] = await Promise.all([
      this.dns.cname(domain),
      this.dns.txt(`${TXT_PREFIX}${domain}`),
      this.dns.addresses(domain),
    ]);
    const check = judgeDomain(
      { cname, txt, addresses },
      page.id,
      this.config.customDomainCnameTarget,
    );
    const ssl =
      check.verified && addresses.length > 0
        ? await this.tls.validCertificate(domain, addresses[0])
        : false;
    const [row] = await this.dataSource.transaction(async (em) => {
      await em.query(
        `UPDATE tracking_page SET domain_enabled = $2, updated_at = now()
          WHERE id = $1 AND domain_enabled IS DISTINCT FROM $2`,
        [page.id, check.verified],
      );
      return em.query(
        `INSERT INTO domain_verification
           (workspace_id, tracking_page_id, domain, accessible, ssl, verified, method, records, checked_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING checked_at`,
        [
          page.workspace_id,
          page.id,
          domain,
          check.accessible,
          ssl,
          check.verified,
          check.method,
          JSON.stringify({ cname, txt, addresses }),
          principal.userId,
        ],
      );
    });
    return {
      domain,
      trackingPage: `/tracking_pages/${page.id}`,
      accessible: check.accessible,
      ssl,
      verified: check.verified,
      method: check.method,
      checkedAt: (row.checked_at as Date).toISOString(),
      expected: {
        cname: this.config.customDomainCnameTarget ?? null,
        txt: { name: `${TXT_PREFIX}${domain}`, value: `tracking-page=${page.id}` },
      },
    };
  }
}
