import { Controller } from '@nestjs/common';
import type { Principal } from '../access/principal';
import type { ActionContext } from '../hydra/actions/action-declaration';
import { Action } from '../hydra/actions/action.decorator';
import { typedJson } from '../hydra/actions/action-result';
import { DomainVerifyInput } from './domain-verify.input';
import { DomainVerification } from './domain-verification';

@Controller()
export class DomainsController {
  constructor(private readonly domains: DomainVerification) {}

  @Action({
    method: 'POST',
    path: '/domain/verify',
    summary: 'Checks the DNS of a tracking page\u2019s custom domain.',
    description:
      'Looks up the TXT record `_tracking-page.<domain>`, which must hold `tracking-page-verification=<token>` with the token of the caller\u2019s tracking page using `domain` (the answer\u2019s `expected.txt`; the proof of ownership), the CNAME (to CUSTOM_DOMAIN_CNAME_TARGET: where traffic goes, reported as `cname`, no proof by itself) and its TLS certificate; records the check and enables or disables the domain on the page. A page proving a domain takes it from another page that held it. Answers `{domain, trackingPage, accessible, cname, ssl, verified, method, checkedAt, expected}`. 422 for a domain none of the caller\u2019s pages uses (other tenants\u2019 pages answer the same); 403 for read-only members of the page\u2019s workspace.',
    input: DomainVerifyInput,
    output: { json: { type: 'object', additionalProperties: true } },
    access: 'workspace:write',
  })
  async verify(input: DomainVerifyInput, principal: Principal, context: ActionContext) {
    const state = await this.domains.verify(principal, input);
    return typedJson(context, 'DomainVerificationState', state);
  }
}
