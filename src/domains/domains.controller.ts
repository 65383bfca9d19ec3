import { Controller } from '@nestjs/common';
import type { Principal } from '../access/principal';
import type { ActionContext } from '../hydra/actions/action-declaration';
import { Action } from '../hydra/actions/action.decorator';
import { typedJson } from '../hydra/actions/action-result';
import { DomainVerifyInput } from './domain-verify.input';
import { DomainVerification } from './domain-verification';
import { DomainVerificationState } from './domain-verification.output';

@Controller()
export class DomainsController {
  constructor(private readonly domains: DomainVerification) {}

  @Action({
    method: 'POST',
    path: '/domain/verify',
    summary: 'Checks the DNS of a tracking page\u2019s custom domain.',
    description:
      'Checks the TXT record `_tracking-page.<domain>` holding the token of the caller’s tracking page using `domain` (the proof of ownership), its CNAME and TLS certificate, and enables or disables the domain on the page. Answers `{domain, trackingPage, accessible, cname, ssl, verified, method, checkedAt, expected}`.',
    input: DomainVerifyInput,
    output: { json: DomainVerificationState },
    access: 'workspace:write',
  })
  async verify(input: DomainVerifyInput, principal: Principal, context: ActionContext) {
    const state = await this.domains.verify(principal, input);
    return typedJson(context, 'DomainVerificationState', state);
  }
}
