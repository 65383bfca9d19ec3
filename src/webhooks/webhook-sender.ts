import { Injectable } from '@nestjs/common';
import http from 'node:http';
import https from 'node:https';
import { AppConfig } from '../config/app-config';
import {
  literalRefusal,
  OutboundRefusedError,
  pinnedLookup,
  resolveOutboundTarget,
  systemLookup,
  type OutboundPolicy,
} from '../common/outbound/outbound-target';

/** Answers read back at most this far (kept in the run's log). */
const MAX_RESPONSE_BYTES = 8 * 1024;

export interface WebhookResponse {
  status: number;
  body: string;
  durationMs: number;
}

/** The target may not be called at all (bad URL, private address): retrying will not help. */
export class WebhookRefusedError extends Error {
  override readonly name = 'WebhookRefusedError';
}

/**
 * POSTs webhook bodies. The target goes through the outbound policy (src/common/outbound: every
 * address the host resolves to must be public unless the host or address is in
 * WEBHOOK_ALLOWED_HOSTS) and the connection goes to the checked address (pinned lookup), so a
 * DNS answer that changes between check and connect cannot slip through. Redirects are not followed; WEBHOOK_TIMEOUT_MS bounds the whole exchange.
 */
@Injectable()
export class WebhookSender {
  constructor(private readonly config: AppConfig) {}

  /** Why a URL is refused before any lookup (scheme, literal private address); null if fine. */
  staticProblem(rawUrl: string): string | null {
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      return 'The webhook URL is not a valid URL.';
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return 'The webhook URL must use http or https.';
    }
    if (url.username || url.password) return 'The webhook URL must not carry credentials.';
    if (literalRefusal(url.hostname, this.policy())) {
      return 'The webhook URL points to a private, loopback or link-local address.';
    }
    return null;
  }

  /** The address to connect to, after the policy check. */
  async resolveTarget(url: URL): Promise<{ address: string; family: number }> {
    const problem = this.staticProblem(url.toString());
    if (problem) throw new WebhookRefusedError(problem);
    try {
      return await resolveOutboundTarget(url.hostname, this.policy());
    } catch (error) {
      // The run's log is the tenant's: it says refused, never which address the name has.
      if (error instanceof OutboundRefusedError) throw new WebhookRefusedError(error.message);
      throw error;
    }
  }

  async post(
    rawUrl: string,
    body: string,
    headers: Record<string, string>,
  ): Promise<WebhookResponse> {
    const url = new URL(rawUrl);
    const target = await this.resolveTarget(url);
    const pinned = pinnedLookup(target);
    const started = Date.now();
    const client = url.protocol === 'https:' ? https : http;
    return new Promise<WebhookResponse>((resolve, reject) => {
      const req = client.request(
        url,
        {
          method: 'POST',
          lookup: pinned,
          headers: {
            ...headers,
            'Content-Type': 'application/json',
            'Content-Length': String(Buffer.byteLength(body)),
          },
          timeout: this.config.webhookTimeoutMs,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            if (size < MAX_RESPONSE_BYTES) chunks.push(chunk);
            size += chunk.length;
          });
          res.on('end', () => {
            clearTimeout(deadline);
            resolve({
              status: res.statusCode ?? 0,
              body: Buffer.concat(chunks).toString('utf8').slice(0, MAX_RESPONSE_BYTES),
              durationMs: Date.now() - started,
            });
          });
          res.on('error', (error) => {
            clearTimeout(deadline);
            reject(error);
          });
        },
      );
      const deadline = setTimeout(
        () => req.destroy(new Error(`timed out after ${this.config.webhookTimeoutMs} ms`)),
        this.config.webhookTimeoutMs,
      );
      req.on('timeout', () =>
        req.destroy(new Error(`timed out after ${this.config.webhookTimeoutMs} ms`)),
      );
      req.on('error', (error) => {
        clearTimeout(deadline);
        reject(error);
      });
      req.end(body);
    });
  }

  /** Every address a host name resolves to (the system resolver, as connections use). */
  protected lookupHost(host: string): Promise<Array<{ address: string; family: number }>> {
    return systemLookup(host);
  }

  private policy(): OutboundPolicy {
    return {
      allowedHosts: this.config.webhookAllowedHosts,
      lookup: (host) => this.lookupHost(host),
    };
  }
}
