import { connect, type ConnectionOptions } from 'node:tls';
import { addressAllowed } from '../common/outbound/outbound-target';

/**
 * Whether a domain serves HTTPS with a certificate valid for it: a TLS handshake with SNI to
 * one of its addresses, certificate checked against the trusted CAs (rejectUnauthorized). The
 * address comes from our own DNS lookup, so the probe asks the same DNS as the check. Like
 * every outbound connection made for a user (src/common/outbound), it never connects to a
 * private, loopback or link-local address: a domain pointed there has no valid certificate.
 */
export const TLS_PROBE = Symbol('TlsProbe');

export interface TlsProbe {
  validCertificate(domain: string, address: string): Promise<boolean>;
}

export interface TlsProbeOptions {
  port?: number;
  timeoutMs?: number;
  /** Extra trusted CAs (tests). */
  ca?: ConnectionOptions['ca'];
  /** Addresses that may be probed although private (tests on loopback). */
  allowedHosts?: readonly string[];
}

export class NodeTlsProbe implements TlsProbe {
  private readonly port: number;
  private readonly timeoutMs: number;
  private readonly ca: ConnectionOptions['ca'];
  private readonly allowedHosts: readonly string[];

  constructor(options: TlsProbeOptions = {}) {
    this.allowedHosts = options.allowedHosts ?? [];
    this.port = options.port ?? 443;
    this.timeoutMs = options.timeoutMs ?? 3000;
    this.ca = options.ca;
  }

  validCertificate(domain: string, address: string): Promise<boolean> {
    if (!addressAllowed(address, { allowedHosts: this.allowedHosts }))
      return Promise.resolve(false);
    return new Promise((resolve) => {
      const socket = connect({
        host: address,
        port: this.port,
        servername: domain,
        rejectUnauthorized: true,
        ...(this.ca ? { ca: this.ca } : {}),
      });
      const done = (ok: boolean) => {
        socket.destroy();
        resolve(ok);
      };
      socket.setTimeout(this.timeoutMs, () => done(false));
      socket.once('secureConnect', () => done(socket.authorized));
      socket.once('error', () => done(false));
    });
  }
}
