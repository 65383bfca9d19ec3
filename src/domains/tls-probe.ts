import { connect, type ConnectionOptions } from 'node:tls';

/**
 * Whether a domain serves HTTPS with a certificate valid for it: a TLS handshake with SNI to
 * one of its addresses, certificate checked against the trusted CAs (rejectUnauthorized). The
 * address comes from our own DNS lookup, so the probe asks the same DNS as the check.
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
}

export class NodeTlsProbe implements TlsProbe {
  private readonly port: number;
  private readonly timeoutMs: number;
  private readonly ca: ConnectionOptions['ca'];

  constructor(options: TlsProbeOptions = {}) {
    this.port = options.port ?? 443;
    this.timeoutMs = options.timeoutMs ?? 3000;
    this.ca = options.ca;
  }

  validCertificate(domain: string, address: string): Promise<boolean> {
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
