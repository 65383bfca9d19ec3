import { Controller, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Public } from '../../access/public.decorator';
import { hasBody } from '../../app.setup';
import { ApiError, BadRequestError } from '../../hydra/errors/api-errors';
import { TrackingWebhooks } from './tracking-webhooks';

/**
 * POST /public/tracking_webhooks/{provider}/{credentialsId}: where a tracking provider pushes
 * updates (configure this URL in the provider's dashboard; `instance` as credentialsId for
 * TRACKING_PROVIDER). Public: the provider's own signature or secret authenticates it, checked
 * over the exact bytes received. 200 `{received, applied, unknown}` when shipments were
 * updated; 202 when none matched (unknown numbers, or an event that carries no tracking);
 * 415 for a body that is not JSON, 400 for JSON that is not an object; 404 for an unknown
 * provider or credentials; 401 for a missing or wrong signature.
 */
@Public()
@Controller()
export class TrackingWebhooksController {
  constructor(private readonly webhooks: TrackingWebhooks) {}

  @Post('/public/tracking_webhooks/:provider/:credentialsId')
  async receive(
    @Param('provider') provider: string,
    @Param('credentialsId') credentialsId: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const headers: Record<string, string | undefined> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
    const rawBody = (req as Request & { rawBody?: Buffer }).rawBody;
    // Every provider pushes JSON objects; the raw bytes are kept for JSON media types only.
    if (hasBody(req) && rawBody === undefined && (req.headers['content-length'] ?? '0') !== '0') {
      throw new ApiError(415, 'A tracking push is a JSON body (Content-Type: application/json).');
    }
    if (
      rawBody !== undefined &&
      (typeof req.body !== 'object' || req.body === null || Array.isArray(req.body))
    ) {
      throw new BadRequestError('A tracking push is a JSON object.');
    }
    const receipt = await this.webhooks.receive(
      provider,
      credentialsId,
      headers,
      rawBody ?? Buffer.alloc(0),
    );
    res.status(receipt.applied > 0 ? 200 : 202).json(receipt);
  }
}
