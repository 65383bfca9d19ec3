import { Controller, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Public } from '../../access/public.decorator';
import { TrackingWebhooks } from './tracking-webhooks';

/**
 * POST /public/tracking_webhooks/{provider}/{credentialsId}: where a tracking provider pushes
 * updates (configure this URL in the provider's dashboard; `instance` as credentialsId for
 * TRACKING_PROVIDER). Public: the provider's own signature or secret authenticates it, checked
 * over the exact bytes received. 200 `{received, applied, unknown}` when shipments were
 * updated; 202 when none matched (unknown numbers, or an event that carries no tracking);
 * 401 for a missing or wrong signature; 404 for an unknown provider or credentials.
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
    const rawBody = (req as Request & { rawBody?: Buffer }).rawBody ?? Buffer.alloc(0);
    const receipt = await this.webhooks.receive(provider, credentialsId, headers, rawBody);
    res.status(receipt.applied > 0 ? 200 : 202).json(receipt);
  }
}
