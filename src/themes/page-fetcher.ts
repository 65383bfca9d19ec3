import { Injectable } from '@nestjs/common';
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { AppConfig } from '../config/app-config';
import {
  OutboundRefusedError,
  pinnedLookup,
  resolveOutboundTarget,
  type OutboundPolicy,
} from '../common/outbound/outbound-target';

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
    let current = new URL(url);
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      if (current.protocol !== 'http:' && current.protocol !== 'https:')
        throw new PageFetchError('only http and https addresses can be fetched');
      const response = await this.get(current);
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400 && response.headers.location) {
        response.resume();
        current = new URL(response.headers.location, current);
        continue;
      }
      if (status < 200 || status >= 300) {
        response.resume();
        throw new PageFetchError(`the site answered HTTP ${status}`);
      }
      const body = await readBody(response, maxBytes);
      return {
        url: current.toString(),
        contentType: String(response.headers['content-type'] ?? ''),
        body,
      };
    }
    throw new PageFetchError('too many redirects');
  }

  private async get(url: URL): Promise<IncomingMessage> {
    let target;
    try {
      target = await resolveOutboundTarget(url.hostname, this.policy);
    } catch (error) {
      if (error instanceof OutboundRefusedError)
        throw new PageFetchError('the address is not a public internet address');
      throw new PageFetchError(`the site could not be reached (${(error as Error).message})`);
    }
    const lookup = pinnedLookup(target);
    const requestOptions: RequestOptions = {
      method: 'GET',
      lookup,
      headers: {
        'User-Agent': 'ShipmentTracking-ThemeGenerator/1.0',
        Accept: 'text/html,application/xhtml+xml,text/css;q=0.9,*/*;q=0.5',
      },
      timeout: this.timeoutMs,
    };
    return new Promise((resolve, reject) => {
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const req = send(url, requestOptions, resolve);
      req.on('timeout', () => req.destroy(new PageFetchError('the site did not answer in time')));
      req.on('error', (error) =>
        reject(
          error instanceof PageFetchError
            ? error
            : new PageFetchError(
                `the site could not be reached (${(error as { code?: string }).code ?? error.message})`,
              ),
        ),
      );
      req.end();
    });
  }
}

function readBody(response: IncomingMessage, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        response.destroy();
        reject(new PageFetchError(`the page is larger than ${maxBytes} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    response.on('error', () => reject(new PageFetchError('the page could not be read')));
  });
}
