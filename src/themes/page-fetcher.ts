import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { OutboundGetError, outboundGet } from '../common/outbound/outbound-get';
import type { OutboundPolicy } from '../common/outbound/outbound-target';

/**
 * Fetches public web pages (a shop's HTML and stylesheets) for theme generation. Requests go
 * through the outbound policy (src/common/outbound): the host is resolved once, every address
 * is checked, and the connection uses the checked address (no DNS rebinding between check and
 * connect); hosts in THEME_FETCH_ALLOWED_HOSTS are exempt (tests on loopback). At most 3 redirects, each checked
 * the same way; bodies above `maxBytes` and answers slower than OUTBOUND_HTTP_TIMEOUT_MS fail.
 */
export const PAGE_FETCHER = Symbol('PageFetcher');

export interface FetchedPage {
  url: string;
  contentType: string;
  body: string;
}

export interface PageFetcher {
  fetch(url: string, options?: { maxBytes?: number }): Promise<FetchedPage>;
}

/** Why a page could not be fetched, in words for the caller. */
export class PageFetchError extends Error {}

const MAX_REDIRECTS = 3;

@Injectable()
export class HttpPageFetcher implements PageFetcher {
  private readonly policy: OutboundPolicy;
  private readonly timeoutMs: number;

  constructor(config: AppConfig) {
    this.policy = { allowedHosts: config.themeFetchAllowedHosts };
    this.timeoutMs = config.outboundHttpTimeoutMs;
  }

  async fetch(url: string, options: { maxBytes?: number } = {}): Promise<FetchedPage> {
    const maxBytes = options.maxBytes ?? 2_000_000;
    try {
      const answer = await outboundGet(url, {
        policy: this.policy,
        headers: {
          'User-Agent': 'ShipmentTracking-ThemeGenerator/1.0',
          Accept: 'text/html,application/xhtml+xml,text/css;q=0.9,*/*;q=0.5',
        },
        maxRedirects: MAX_REDIRECTS,
        maxBytes,
        timeoutMs: this.timeoutMs,
      });
      return {
        url: answer.url.toString(),
        contentType: String(answer.headers['content-type'] ?? ''),
        body: answer.body.toString('utf8'),
      };
    } catch (error) {
      if (!(error instanceof OutboundGetError)) throw error;
      throw new PageFetchError(pageFetchMessage(error, maxBytes));
    }
  }
}

/** The words of a failed fetch, as the theme generator reports them. */
function pageFetchMessage(error: OutboundGetError, maxBytes: number): string {
  switch (error.reason) {
    case 'status':
      return `the site answered HTTP ${error.status}`;
    case 'too_large':
      return `the page is larger than ${maxBytes} bytes`;
    case 'timeout':
      return 'the site did not answer in time';
    case 'redirects':
      return 'too many redirects';
    case 'refused':
    case 'not_http':
      return error.message;
    default:
      return error.message.replace(/^the server/, 'the site');
  }
}
