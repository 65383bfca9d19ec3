import { ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  ThrottlerGuard,
  type ThrottlerLimitDetail,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import type { Request } from 'express';
import { AppConfig } from '../config/app-config';
import { ApiError } from '../common/errors/api-errors';
import { RATE_LIMIT_STORAGE } from '../rate-limit/rate-limit.module';

/** The client id a token request names: body, query or HTTP Basic user name. */
export function requestedClientId(req: Request): string | null {
  const fromParams =
    (req.body as Record<string, unknown> | undefined)?.client_id ??
    (req.query as Record<string, unknown>).client_id;
  if (typeof fromParams === 'string' && fromParams) return fromParams;
  const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
  if (basic) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const user = decoded.split(':')[0];
    if (user) return decodeURIComponent(user);
  }
  return null;
}

/**
 * Rate limit of the token endpoints only (not a global guard): one budget per client
 * address and one per client_id, shared by every token route, limits from the config.
 * Counters live in the storage RATE_LIMIT_STORE selects: PostgreSQL by default, so every node
 * spends the same budget.
 */
@Injectable()
export class TokenThrottlerGuard extends ThrottlerGuard {
  private ready: Promise<void> | null = null;

  constructor(
    // Explicit: the parent's constructor declares the throttler module's options token here.
    @Inject(AppConfig) config: AppConfig,
    @Inject(RATE_LIMIT_STORAGE) storage: ThrottlerStorage,
    reflector: Reflector,
  ) {
    const ttl = config.tokenRateWindowSeconds * 1000;
    super(
      {
        throttlers: [
          { name: 'address', ttl, limit: config.tokenRateLimitPerAddress },
          {
            name: 'client',
            ttl,
            limit: config.tokenRateLimitPerClient,
            getTracker: (req) => requestedClientId(req as Request) ?? '',
            skipIf: (ctx) => !requestedClientId(ctx.switchToHttp().getRequest<Request>()),
          },
        ],
      },
      storage,
      reflector,
    );
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    await (this.ready ??= this.onModuleInit());
    return super.canActivate(context);
  }

  /** Same key for every token route: the budget is per address or client, not per route. */
  protected override generateKey(_context: ExecutionContext, tracker: string, name: string) {
    return `oauth-token:${name}:${tracker}`;
  }

  protected override async throwThrottlingException(
    _context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    throw new ApiError(429, 'Too many token requests; retry later.', {
      'Retry-After': String(Math.max(1, detail.timeToBlockExpire)),
    });
  }
}
