import { Injectable, Logger } from '@nestjs/common';
import { promises as dns } from 'node:dns';
import { AppConfig } from '../config/app-config';

/**
 * DNS questions of custom domain checks. The adapter uses Node's resolver (c-ares) with the
 * servers of DNS_SERVERS, else the system's; tests point it at a local DNS responder. A name
 * without the records asked (NXDOMAIN, NODATA) answers empty; so does a failed lookup (timeout,
 * refused), which is logged: a domain is never reported verified without an answer.
 */
export const DNS_LOOKUP = Symbol('DnsLookup');

export interface DnsLookup {
  /** CNAME targets of the name (lower case, no trailing dot). */
  cname(name: string): Promise<string[]>;
  /** TXT records, each joined from its strings. */
  txt(name: string): Promise<string[]>;
  /** IPv4 and IPv6 addresses the name resolves to (following CNAMEs). */
  addresses(name: string): Promise<string[]>;
}

const EMPTY_ANSWERS = new Set(['ENODATA', 'ENOTFOUND', 'NOTFOUND', 'ENONAME']);

@Injectable()
export class NodeDnsLookup implements DnsLookup {
  private readonly logger = new Logger(NodeDnsLookup.name);
  private readonly resolver: dns.Resolver;

  constructor(config: AppConfig) {
    this.resolver = new dns.Resolver({ timeout: 2000, tries: 2 });
    if (config.dnsServers.length) this.resolver.setServers(config.dnsServers);
  }

  async cname(name: string): Promise<string[]> {
    const found = await this.ask(() => this.resolver.resolveCname(name), name, 'CNAME');
    return found.map(normalizeName);
  }

  async txt(name: string): Promise<string[]> {
    const found = await this.ask(() => this.resolver.resolveTxt(name), name, 'TXT');
    return found.map((chunks) => chunks.join(''));
  }

  async addresses(name: string): Promise<string[]> {
    const [v4, v6] = await Promise.all([
      this.ask(() => this.resolver.resolve4(name), name, 'A'),
      this.ask(() => this.resolver.resolve6(name), name, 'AAAA'),
    ]);
    return [...v4, ...v6];
  }

  private async ask<T>(question: () => Promise<T[]>, name: string, type: string): Promise<T[]> {
    try {
      return await question();
    } catch (error) {
      const code = (error as { code?: string }).code ?? '';
      if (!EMPTY_ANSWERS.has(code)) this.logger.warn(`DNS ${type} ${name} failed: ${code}`);
      return [];
    }
  }
}

export function normalizeName(name: string): string {
  return name.trim().toLowerCase().replace(/\.$/, '');
}
