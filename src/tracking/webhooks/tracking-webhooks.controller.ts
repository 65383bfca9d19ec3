import { Controller, UseGuards } from '@nestjs/common';
import type { Principal } from '../../access/principal';
import { TokenThrottlerGuard } from '../../auth/token-throttler.guard';
import type { ActionContext } from '../../hydra/actions/action-declaration';
import { Action } from '../../hydra/actions/action.decorator';
import { Answer } from '../../hydra/actions/action-result';
import { ApiError } from '../../common/errors/api-errors';
import { PUSH_TOKEN_RESPONSE, PUSH_TOKEN_RESPONSES, PushTokenInput } from './push-token.input';
import { TrackingWebhooks, type PushReceipt, type PushTokenReceipt } from './tracking-webhooks';

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
      type: 'object',
      additionalProperties: true,
      description:
        'The provider\u2019s own push payload, exactly as it sends it (signatures cover the raw bytes).',
    },
    method: 'POST',
    path: '/public/tracking_webhooks/:provider/:credentialsId',
    summary: 'Receives a tracking provider\u2019s push of shipment updates.',
    description:
      'Public: no token; the provider\u2019s signature (or shared secret) over the exact body bytes authenticates the push, for the provider credentials `credentialsId` (`instance` for the server\u2019s own TRACKING_PROVIDER). Applies the tracking events to the shipments whose numbers match. Answers plain JSON `{received, applied, unknown}` whatever the Accept header: 200 when shipments were updated, 202 when none matched (unknown numbers, or an event without tracking). Errors: 415 a body that is not JSON, 400 JSON that is not an object, 404 an unknown provider or credentials, 401 a missing or wrong signature.',
    output: {
      json: {
        type: 'object',
        properties: {
          received: { type: 'integer' },
          applied: { type: 'integer' },
          unknown: { type: 'array', items: { type: 'string' } },
        },
      },
    },
    formats: 'any',
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
    );
    return new Answer(receipt, receipt.applied > 0 ? 200 : 202);
  }

  @Action({
    method: 'POST',
    path: '/public/tracking_webhooks/:provider/:credentialsId/token',
    summary: 'Issues the OAuth token a tracking provider authenticates its pushes with.',
    description:
      'Public, for providers that get an OAuth token from the subscriber before pushing (UPS Track Alert v2: configure this URL as the webhook\u2019s token URL in the UPS portal). OAuth 2 client credentials (RFC 6749 4.4): the client is the credentials record (`credentialsId`, `instance` for TRACKING_PROVIDER) authenticated by HTTP Basic (or `client_id` / `client_secret` fields) with its `webhookSecret`; answers `{access_token, token_type: "Bearer", expires_in}` (3600 s), never cached. Errors as RFC 6749 bodies: 401 `invalid_client` (wrong id or secret, or no webhookSecret set), 400 `unsupported_grant_type` or `invalid_request`; 404 an unknown provider or credentials, or a provider that gets no tokens here; 429 beyond the budget of the token routes (per client address and per client id, as `/oauth/v2/token`).',
    input: PushTokenInput,
    form: true,
    output: { json: PUSH_TOKEN_RESPONSE },
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
  ): Promise<Answer<PushTokenReceipt['body']>> {
    const receipt = await this.webhooks.issueToken(
      context.params.provider,
      context.params.credentialsId,
      context.header('authorization'),
      input as Record<string, unknown>,
    );
    const headers: Record<string, string> = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };
    if (receipt.status === 401) headers['WWW-Authenticate'] = 'Basic realm="tracking webhooks"';
    return new Answer(receipt.body, receipt.status, headers);
  }
}

/** The request's headers by lower-case name, as the providers' signature checks read them. */
function requestHeaders(context: ActionContext): Readonly<Record<string, string | undefined>> {
  return new Proxy(
    {},
    { get: (_target, name) => (typeof name === 'string' ? context.header(name) : undefined) },
  );
}
