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
import { CONSOLE_CLIENT_ID } from './first-party-client';
import { tokenClient } from './token-client';

/**
 * The client a token request authenticates as (token-client.ts): the HTTP Basic user name when
 * Basic is used, else the `client_id` of the parameters the route reads (the query string of a
 * GET, the body otherwise).
 */
export function requestedClientId(req: Request): string | null {
  const params = req.method === 'GET' ? req.query : req.body;
  const readable = params !== null && typeof params === 'object' && !Buffer.isBuffer(params);
  return tokenClient(req.headers.authorization, readable ? (params as Record<string, unknown>) : {})
    .clientId;
}

/**
 * Rate limit of the token endpoints only (not a global guard): one budget per client
 * address and one per authenticated client (never a body client_id beside HTTP Basic: guesses
 * at one client's secret buy no fresh budget), shared by every token route, limits from the
 * config. The console's public client has no secret to guess and is shared by every merchant
 * (their sign-ins and hourly refreshes): a budget of its own would let anyone who sends its
 * `client_id` sign every merchant out, so its requests count per address only.
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
            skipIf: (ctx) => {
              const client = requestedClientId(ctx.switchToHttp().getRequest<Request>());
              return !client || client === CONSOLE_CLIENT_ID;
            },
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
