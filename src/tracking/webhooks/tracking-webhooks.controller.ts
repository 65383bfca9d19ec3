import { Controller, UseGuards } from '@nestjs/common';
import type { Principal } from '../../access/principal';
import { TokenThrottlerGuard } from '../../auth/token-throttler.guard';
import type { ActionContext } from '../../hydra/actions/action-declaration';
import { Action } from '../../hydra/actions/action.decorator';
import { Answer, ErrorAnswer } from '../../hydra/actions/action-result';
import { classSchema } from '../../hydra/actions/action-schemas';
import { ApiError } from '../../common/errors/api-errors';
import { PUSH_TOKEN_RESPONSES, PushTokenInput } from './push-token.input';
import { TrackingWebhooks, type PushReceipt } from './tracking-webhooks';
import { PushReceiptOutput, PushToken, TrackingPushPayload } from './tracking-webhooks.output';

/**
 * Where tracking providers push updates (configure the URL in the provider's dashboard;
 * `instance` as credentialsId for TRACKING_PROVIDER). The provider's own signature or secret
 * authenticates the push, checked over the exact bytes received.
 */
@Controller()
export class TrackingWebhooksController {
  constructor(private readonly webhooks: TrackingWebhooks) {}

  @Action({
    bodySchema: {
      ...classSchema(TrackingPushPayload),
      description:
        'The provider\u2019s own push payload, exactly as it sends it (signatures cover the raw bytes).',
    },
    method: 'POST',
    path: '/public/tracking_webhooks/:provider/:credentialsId',
    summary: 'Receives a tracking provider\u2019s push of shipment updates.',
    description:
      'Applies a provider’s push to the shipments whose numbers match, authenticated by the provider’s signature over the exact body bytes. Answers plain JSON `{received, applied, unknown}`: 200 when shipments were updated, 202 when none matched.',
    output: { json: PushReceiptOutput },
    formats: 'any',
    responses: {
      401: { description: 'A missing or wrong signature (spends the failure budgets).' },
      429: {
        description:
          'Too many failed signature checks for these credentials or from this address; retry after Retry-After.',
        headers: {
          'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } },
        },
      },
    },
    access: 'public',
  })
  async receive(
    _input: unknown,
    _principal: Principal | undefined,
    context: ActionContext,
  ): Promise<Answer<PushReceipt>> {
    // Every provider pushes JSON objects; the raw bytes are kept for JSON media types only.
    const sent =
      context.header('transfer-encoding') !== undefined ||
      (context.header('content-length') ?? '0') !== '0';
    if (sent && context.rawBody === undefined) {
      throw new ApiError(415, 'A tracking push is a JSON body (Content-Type: application/json).');
    }
    const receipt = await this.webhooks.receive(
      context.params.provider,
      context.params.credentialsId,
      requestHeaders(context),
      context.rawBody ?? Buffer.alloc(0),
      context.ip,
    );
    return new Answer(receipt, receipt.applied > 0 ? 200 : 202);
  }

  @Action({
    method: 'POST',
    path: '/public/tracking_webhooks/:provider/:credentialsId/token',
    summary: 'Issues the OAuth token a tracking provider authenticates its pushes with.',
    description:
      'OAuth 2 client credentials for providers that get a token before pushing (UPS Track Alert): the client is the credentials record, authenticated with its `webhookSecret`. Answers `{access_token, token_type, expires_in}` or RFC 6749 errors, never cached.',
    input: PushTokenInput,
    form: true,
    output: { json: PushToken },
    formats: 'any',
    responses: PUSH_TOKEN_RESPONSES,
    access: 'public',
  })
  // The budget of every token route (per client address and per client id): a webhookSecret
  // is chosen by the user, so guesses at it are limited like guesses at a client secret.
  @UseGuards(TokenThrottlerGuard)
  async token(
    input: PushTokenInput,
    _principal: Principal | undefined,
    context: ActionContext,
  ): Promise<Answer<PushToken> | ErrorAnswer> {
    const receipt = await this.webhooks.issueToken(
      context.params.provider,
      context.params.credentialsId,
      context.header('authorization'),
      input as Record<string, unknown>,
      context.ip,
    );
    const headers: Record<string, string> = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };
    if (receipt.status === 401) headers['WWW-Authenticate'] = 'Basic realm="tracking webhooks"';
    const { body } = receipt;
    return 'error' in body
      ? new ErrorAnswer(body, receipt.status, headers)
      : new Answer(body, receipt.status, headers);
  }
}

/** The request's headers by lower-case name, as the providers' signature checks read them. */
function requestHeaders(context: ActionContext): Readonly<Record<string, string | undefined>> {
  return new Proxy(
    {},
    { get: (_target, name) => (typeof name === 'string' ? context.header(name) : undefined) },
  );
}
