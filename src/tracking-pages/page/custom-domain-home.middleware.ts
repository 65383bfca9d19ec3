import { Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { isIP } from 'node:net';
import { AppConfig } from '../../config/app-config';
import { HomeSite } from './home-site';

/**
 * `GET /` on a tracking page's own host is its home (its form posts to /track/{subdomain} on
 * the same host): a verified custom domain
 * (`domain` with `domainEnabled`), or `<subdomain>.<host of PUBLIC_TRACKING_BASE_URL>`.
 * Any other host (the API's own, an IP address) goes on to the Hydra entrypoint.
 */
@Injectable()
export class CustomDomainHomeMiddleware implements NestMiddleware {
  private readonly apiHosts: Set<string>;
  private readonly trackingHost: string | null;

  constructor(
    private readonly home: HomeSite,
    config: AppConfig,
  ) {
    const hostOf = (url: string | undefined) => {
      try {
        return url ? new URL(url).hostname.toLowerCase() : null;
      } catch {
        return null;
      }
    };
    this.apiHosts = new Set(
      ['localhost', hostOf(config.publicUrl)].filter((h): h is string => !!h),
    );
    this.trackingHost = hostOf(config.publicTrackingBaseUrl);
  }

  async use(req: Request, res: Response, next: NextFunction): Promise<void> {
    if (req.path !== '/' || req.method !== 'GET') return next();
    const host = (req.hostname ?? '').toLowerCase();
    if (!host || isIP(host) || this.apiHosts.has(host)) return next();
    let subdomain: string | undefined;
    if (this.trackingHost && host.endsWith(`.${this.trackingHost}`)) {
      const label = host.slice(0, -this.trackingHost.length - 1);
      if (!label.includes('.')) subdomain = label;
    }
    try {
      const page = await this.home.pageAt({ subdomain, domain: host });
      if (!page) return next();
      await this.home.show(req, res, page, `/track/${page.subdomain}`);
    } catch (error) {
      next(error);
    }
  }
}
