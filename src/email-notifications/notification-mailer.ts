import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { CredentialsMailStore } from '../credentials/credentials-mail-store';
import { CredentialsService } from '../credentials/credentials.service';
import { PermanentDeliveryError } from '../events/delivery-error';
import { MAILER, type Mailer, type MailMessage, type MailReceipt } from '../mail/mailer';
import { WorkspaceNotificationStore } from '../workspaces/workspace-notification-store';
import {
  receiptOf,
  redactSecrets,
  smtpAddress,
  SmtpRefusedError,
  smtpServerLabel,
  smtpSettings,
  smtpTransportOptions,
  type SmtpSettings,
} from '../mail/smtp-transport';

const CREDENTIALS_IRI =
  /^\/credentials\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;
/** Transports unused this long are closed; at most this many are kept. */
const IDLE_MS = 10 * 60_000;
const MAX_TRANSPORTS = 100;

/** A sending failure through a workspace's SMTP server: names the server, never a secret. */
export class WorkspaceSmtpError extends Error {
  override readonly name = 'WorkspaceSmtpError';

  constructor(
    message: string,
    /** `host:port` of the server. */
    readonly server: string,
  ) {
    super(message);
  }
}

interface OpenTransport {
  transporter: Transporter;
  settings: SmtpSettings;
  /** The error text of this server without the credentials' secrets. */
  redact(text: string): string;
}

interface CachedTransport {
  /** updated_at of the credentials it was built from. */
  updatedAt: number;
  ready: Promise<OpenTransport>;
  lastUsed: number;
  inFlight: number;
  /** Replaced or evicted: closed once its last send is done. */
  retired: boolean;
  closed: boolean;
}

/**
 * Sends a workspace's e-mail notifications. A workspace whose `emailSettings.smtpCredentials`
 * names `smtp` credentials of its team sends through that server, as `fromEmail` (the
 * workspace's title as the display name); any other workspace through the global Mailer
 * (SMTP_URL and MAIL_FROM, or the log).
 *
 * One pooled transport per credentials record, built on first use (the sealed secrets are
 * opened then, and only then) and kept while the record's updated_at stays the same: a
 * changed record gets a new transport and the old one is closed after its sends; ones unused
 * for 10 minutes are closed at the next send, all at shutdown (idle pool connections close on
 * their own after SMTP_SOCKET_TIMEOUT_MS). The host's addresses are checked against the
 * private ranges (SMTP_ALLOWED_HOSTS exempts some) when the transport is built.
 *
 * Unusable settings (credentials gone, of another type or team, without host or fromEmail, a
 * refused address) throw a PermanentDeliveryError; a failure of the server (connection, AUTH,
 * refusal of every recipient) a WorkspaceSmtpError naming `host:port` and the credentials,
 * with any secret redacted, for the outbox to retry.
 */
@Injectable()
export class NotificationMailer implements OnApplicationShutdown {
  private readonly logger = new Logger(NotificationMailer.name);
  private readonly transports = new Map<string, CachedTransport>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly credentials: CredentialsService,
    @Inject(MAILER) private readonly mailer: Mailer,
    private readonly workspaces: WorkspaceNotificationStore,
    private readonly credentialVersions: CredentialsMailStore,
  ) {}

  async send(workspaceId: string, message: MailMessage): Promise<MailReceipt | void> {
    const workspace = await this.workspaces.mailSettings(workspaceId);
    if (!workspace?.smtp_credentials) return this.mailer.send(message);
    const iri = workspace.smtp_credentials;
    const id = CREDENTIALS_IRI.exec(iri)?.[1]?.toLowerCase();
    const row = id ? await this.credentialVersions.version(id) : undefined;
    if (!row) throw new PermanentDeliveryError(`the SMTP credentials ${iri} no longer exist`);
    if (row.type !== 'smtp') {
      throw new PermanentDeliveryError(`the credentials ${iri} are not SMTP credentials`);
    }
    if (row.team_id !== workspace.team_id) {
      throw new PermanentDeliveryError(
        `the SMTP credentials ${iri} do not belong to the team of the workspace`,
      );
    }
    const entry = this.entryFor(row.id, new Date(row.updated_at).getTime());
    entry.inFlight++;
    try {
      const transport = await entry.ready.catch((error: unknown) => {
        if (error instanceof PermanentDeliveryError) throw error;
        const reason = error instanceof Error ? error.message : String(error);
        throw error instanceof SmtpRefusedError
          ? new PermanentDeliveryError(`the SMTP server of ${iri}: ${reason}`)
          : new Error(`the SMTP credentials ${iri} cannot be used: ${reason}`);
      });
      const server = smtpServerLabel(transport.settings);
      try {
        const info = await transport.transporter.sendMail({
          ...message,
          from: { name: workspace.title, address: transport.settings.fromEmail },
        });
        return receiptOf(info as { accepted?: unknown; rejected?: unknown });
      } catch (error) {
        const reason = transport.redact(error instanceof Error ? error.message : String(error));
        throw new WorkspaceSmtpError(`SMTP server ${server} (${iri}): ${reason}`, server);
      }
    } finally {
      entry.inFlight--;
      entry.lastUsed = Date.now();
      if (entry.retired) this.closeWhenDone(entry);
    }
  }

  onApplicationShutdown(): void {
    for (const [id, entry] of [...this.transports]) this.retire(id, entry);
  }

  /** Open transports (for tests and diagnostics). */
  get size(): number {
    return this.transports.size;
  }

  private entryFor(id: string, updatedAt: number): CachedTransport {
    const now = Date.now();
    for (const [key, cached] of this.transports) {
      if (cached.inFlight === 0 && now - cached.lastUsed > IDLE_MS) this.retire(key, cached);
    }
    const current = this.transports.get(id);
    if (current && current.updatedAt === updatedAt) return current;
    if (current) this.retire(id, current);
    const entry: CachedTransport = {
      updatedAt,
      ready: this.build(id),
      lastUsed: now,
      inFlight: 0,
      retired: false,
      closed: false,
    };
    // A failed build is not kept: the next send tries again.
    entry.ready.catch(() => {
      if (this.transports.get(id) === entry) this.transports.delete(id);
    });
    this.transports.set(id, entry);
    if (this.transports.size > MAX_TRANSPORTS) {
      const [oldestId, oldest] = [...this.transports].reduce((a, b) =>
        b[1].lastUsed < a[1].lastUsed ? b : a,
      );
      this.retire(oldestId, oldest);
    }
    return entry;
  }

  private async build(id: string): Promise<OpenTransport> {
    const opened = await this.credentials.open(this.dataSource, id);
    const iri = `/credentials/${id}`;
    if (!opened) throw new PermanentDeliveryError(`the SMTP credentials ${iri} no longer exist`);
    const password = opened.secrets.password;
    const settings = smtpSettings(opened.parameters, !!password);
    if ('problem' in settings) throw new PermanentDeliveryError(`${settings.problem} (${iri})`);
    const address = await smtpAddress(settings.host, this.config.smtpAllowedHosts);
    const transporter = createTransport(smtpTransportOptions(settings, password, address));
    const redact = (text: string) => redactSecrets(text, opened.secrets, settings.username);
    transporter.on('error', (error: Error) =>
      this.logger.warn(`SMTP server ${smtpServerLabel(settings)}: ${redact(error.message)}`),
    );
    return { transporter, settings, redact };
  }

  private retire(id: string, entry: CachedTransport): void {
    if (this.transports.get(id) === entry) this.transports.delete(id);
    entry.retired = true;
    this.closeWhenDone(entry);
  }

  private closeWhenDone(entry: CachedTransport): void {
    if (entry.inFlight > 0 || entry.closed) return;
    entry.closed = true;
    entry.ready.then(
      (transport) => transport.transporter.close(),
      () => undefined,
    );
  }
}
