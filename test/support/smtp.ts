import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

export interface ReceivedMail {
  /** Envelope sender (MAIL FROM). */
  from: string;
  /** Envelope recipients (RCPT TO), lower case: To, Cc and Bcc addresses alike. */
  to: string[];
  /** The user the client authenticated as (servers started with `auth`). */
  user?: string;
  /** Raw message (headers and body). */
  raw: string;
  subject: string;
  /** Body with transfer encodings undone (quoted-printable soft breaks, =XX). */
  text: string;
  /** Date.now() when the server had the whole message. */
  receivedAt: number;
}

export interface TestSmtpOptions {
  /** Require AUTH (PLAIN or LOGIN, over the plain connection) with this user and password. */
  auth?: { user: string; pass: string };
}

export interface TestSmtp {
  url: string;
  /** Port on 127.0.0.1. */
  port: number;
  messages: ReceivedMail[];
  /** AUTH attempts, in order, and whether they succeeded (never the password). */
  authAttempts: Array<{ method: string; user: string; ok: boolean }>;
  /** The next (or an already received) message to `to` matching `subject`. */
  waitFor(to: string, subject?: RegExp, timeoutMs?: number): Promise<ReceivedMail>;
  /** Refuse the next `times` messages to `to` with a temporary error (451 at RCPT TO). */
  refuse(to: string, times: number): void;
  /** Delay (ms) before the server greets each new connection: a slow server. 0 by default. */
  greetingDelayMs: number;
  close(): Promise<void>;
}

/**
 * A real SMTP server in the test process (the `smtp-server` package) on a free loopback
 * port. Point the app at it with `process.env.SMTP_URL = smtp.url` before creating it.
 * With `auth`, mail is taken only after AUTH PLAIN or LOGIN with those credentials (a wrong
 * password is answered 535); each message records the user it came from.
 */
export async function startTestSmtp(options: TestSmtpOptions = {}): Promise<TestSmtp> {
  const messages: ReceivedMail[] = [];
  const authAttempts: TestSmtp['authAttempts'] = [];
  const waiters: Array<() => void> = [];
  const required = options.auth;
  const refusals = new Map<string, number>();
  const control = { greetingDelayMs: 0 };
  const server = new SMTPServer({
    authOptional: !required,
    authMethods: ['PLAIN', 'LOGIN'],
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      const ok = !!required && auth.username === required.user && auth.password === required.pass;
      authAttempts.push({ method: auth.method, user: auth.username ?? '', ok });
      if (!ok) {
        return callback(
          Object.assign(new Error('Authentication credentials invalid'), { responseCode: 535 }),
        );
      }
      callback(null, { user: auth.username });
    },
    onConnect(_session, callback) {
      if (control.greetingDelayMs > 0) setTimeout(() => callback(), control.greetingDelayMs);
      else callback();
    },
    onRcptTo(address, _session, callback) {
      const to = address.address.toLowerCase();
      const left = refusals.get(to) ?? 0;
      if (left <= 0) return callback();
      refusals.set(to, left - 1);
      callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          ...(session.user !== undefined ? { user: String(session.user) } : {}),
          raw,
          subject: decodeHeader(/^Subject: (.*(?:\r\n[ \t].*)*)/im.exec(raw)?.[1] ?? ''),
          text: decodeQuotedPrintable(raw),
          receivedAt: Date.now(),
        });
        waiters.splice(0).forEach((wake) => wake());
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  const find = (to: string, subject?: RegExp) =>
    messages.find((m) => m.to.includes(to.toLowerCase()) && (!subject || subject.test(m.subject)));

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    authAttempts,
    refuse: (to, times) => void refusals.set(to.toLowerCase(), times),
    get greetingDelayMs() {
      return control.greetingDelayMs;
    },
    set greetingDelayMs(ms: number) {
      control.greetingDelayMs = ms;
    },
    async waitFor(to, subject, timeoutMs = 10000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = find(to, subject);
        if (found) {
          messages.splice(messages.indexOf(found), 1);
          return found;
        }
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`No mail to ${to} matching ${subject ?? 'anything'}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(left, 200));
          waiters.push(() => (clearTimeout(timer), resolve()));
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

function decodeHeader(value: string): string {
  return value
    .replace(/\r\n[ \t]/g, ' ')
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_m, enc: string, text: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    )
    .trim();
}

/** The first match of `pattern`'s group 1 in a mail's decoded text. */
export function extract(mail: ReceivedMail, pattern: RegExp): string {
  const m = pattern.exec(mail.text);
  if (!m) throw new Error(`Pattern ${pattern} not found in mail:\n${mail.text}`);
  return m[1];
}
