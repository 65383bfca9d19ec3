import { Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { AppConfig } from '../../config/app-config';
import { homeHostOf, hostOfUrl, type SiteHosts } from './home-host';
import { HomeSite } from './home-site';

/**
 * `GET /` on a tracking page's own host is its home (its form posts to /track/{subdomain} on
 * the same host): a verified custom domain
 * (`domain` with `domainEnabled`), or `<subdomain>.<host of PUBLIC_TRACKING_BASE_URL>`.
 * Any other host (the API's own, an IP address) goes on to the Hydra entrypoint.
 */
@Injectable()
export class CustomDomainHomeMiddleware implements NestMiddleware {
  private readonly hosts: SiteHosts;

  constructor(
    private readonly home: HomeSite,
    config: AppConfig,
  ) {
    this.hosts = {
      apiHosts: new Set(['localhost', hostOfUrl(config.publicUrl)].filter((h): h is string => !!h)),
      trackingHost: hostOfUrl(config.publicTrackingBaseUrl),
    };
  }

  async use(req: Request, res: Response, next: NextFunction): Promise<void> {
    if (req.path !== '/' || req.method !== 'GET') return next();
    const where = homeHostOf(req.hostname, this.hosts);
    if (!where) return next();
    try {
      const page = await this.home.pageAt(where);
      if (!page) return next();
      await this.home.show(req, res, page, `/track/${page.subdomain}`);
    } catch (error) {
      next(error);
    }
  }
}
