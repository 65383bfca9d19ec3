import { Logger } from '@nestjs/common';
import type PgBoss from 'pg-boss';
import { loadConfig } from '../config/load-config';
import { CredentialsCipher } from '../credentials/credentials-cipher';
import type { JobQueue, SendOptions, WorkerDefinition } from '../jobs/job-queue';
import { MailDispatcher } from './mail-dispatcher';
import { MAIL_QUEUE, openMail, type MailJobData } from './mail-job';
import type { Mailer, MailMessage } from './mailer';

const CODE = 'one-time-c0de-123';
const message: MailMessage = {
  to: 'someone@example.test',
  subject: 'Verify your e-mail address',
  text: `Verification code: ${CODE}\nhttps://api.example.test/security/verify-email?code=${CODE}\n`,
};

/** A controllable promise. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

class FakeJobs {
  events: string[] = [];
  sent: Array<{ queue: string; data: MailJobData; options: SendOptions }> = [];
  deleted: string[] = [];
  worker!: WorkerDefinition<MailJobData>;
  stopHooks: Array<() => Promise<void>> = [];
  failSend = false;
  declareQueue(): void {}
  work(definition: WorkerDefinition<MailJobData>): void {
    this.worker = definition;
  }
  beforeStop(hook: () => Promise<void>): void {
    this.stopHooks.push(hook);
  }
  async send(queue: string, data: MailJobData, options: SendOptions): Promise<string> {
    this.events.push('enqueue');
    if (this.failSend) throw new Error('database unreachable');
    this.sent.push({ queue, data, options });
    return `job-${this.sent.length}`;
  }
  async deleteJob(queue: string, id: string): Promise<void> {
    this.events.push(`delete ${id}`);
    this.deleted.push(id);
  }
}

class FakeMailer implements Mailer {
  calls: MailMessage[] = [];
  next: Array<Promise<void>> = [];
  constructor(private readonly events: string[]) {}
  send(m: MailMessage): Promise<void> {
    this.events.push('send');
    this.calls.push(m);
    return this.next.shift() ?? Promise.resolve();
  }
}

describe('MailDispatcher', () => {
  const config = loadConfig({
    NODE_ENV: 'test',
    MAIL_RETRY_DELAY_SECONDS: '7',
    MAIL_MAX_ATTEMPTS: '4',
  });
  const cipher = new CredentialsCipher(config);
  let jobs: FakeJobs;
  let mailer: FakeMailer;
  let dispatcher: MailDispatcher;
  let logs: { warn: string[]; error: string[] };

  beforeEach(() => {
    jobs = new FakeJobs();
    mailer = new FakeMailer(jobs.events);
    dispatcher = new MailDispatcher(mailer, jobs as unknown as JobQueue, cipher, config);
    logs = { warn: [], error: [] };
    jest
      .spyOn(Logger.prototype, 'warn')
      .mockImplementation((m: unknown) => void logs.warn.push(String(m)));
    jest
      .spyOn(Logger.prototype, 'error')
      .mockImplementation((m: unknown) => void logs.error.push(String(m)));
  });
  afterEach(() => jest.restoreAllMocks());

  const job = (id: string, retryCount: number) =>
    ({ id, retryCount, retryLimit: 2 }) as unknown as PgBoss.Job<MailJobData>;

  it('records a sealed, delayed job first, sends, then deletes the job', async () => {
    expect(dispatcher.dispatch(message)).toBeUndefined(); // nothing for the caller to await
    expect(jobs.events).toEqual(['enqueue']); // started, not sent before the job is recorded
    await jobs.stopHooks[0]();
    expect(jobs.events).toEqual(['enqueue', 'send', 'delete job-1']);
    const [{ queue, data, options }] = jobs.sent;
    expect(queue).toBe(MAIL_QUEUE);
    expect(options).toEqual({ startAfter: 7, retryLimit: 2, retryDelay: 7, retryBackoff: true });
    expect(JSON.stringify(data)).not.toContain(CODE);
    expect(openMail(cipher, data)).toEqual(message);
    expect(mailer.calls).toEqual([message]);
  });

  it('leaves the job to send later when the immediate attempt fails', async () => {
    mailer.next.push(Promise.reject(new Error('451 try again later')));
    dispatcher.dispatch(message);
    await jobs.stopHooks[0]();
    expect(jobs.events).toEqual(['enqueue', 'send']);
    expect(logs.warn.join('\n')).toContain('mail job job-1 sends it 7 s after dispatch');
    expect(logs.warn.join('\n')).not.toContain(CODE);
  });

  it('still sends once when the job cannot be recorded', async () => {
    jobs.failSend = true;
    dispatcher.dispatch(message);
    await jobs.stopHooks[0]();
    expect(jobs.events).toEqual(['enqueue', 'send']);
    expect(logs.error.join('\n')).toMatch(/Recording .* failed, sending it once/);
  });

  it('shutdown waits for attempts in flight and their job deletion', async () => {
    const smtp = deferred();
    mailer.next.push(smtp.promise);
    dispatcher.dispatch(message);
    let drained = false;
    const draining = jobs.stopHooks[0]().then(() => (drained = true));
    await flush();
    expect(jobs.events).toEqual(['enqueue', 'send']);
    expect(drained).toBe(false);
    smtp.resolve();
    await draining;
    expect(jobs.events).toEqual(['enqueue', 'send', 'delete job-1']);
    await dispatcher.onApplicationShutdown();
  });

  it('the job opens and sends the message; a failure is retried, the last one is an error', async () => {
    const data = cipher.sealSecrets({ message: JSON.stringify(message) })!;
    await jobs.worker.handle({ sealed: data }, job('j-ok', 0));
    expect(mailer.calls).toEqual([message]);

    mailer.next.push(Promise.reject(new Error('connection refused')));
    await expect(jobs.worker.handle({ sealed: data }, job('j-1', 1))).rejects.toThrow('refused');
    expect(logs.error).toEqual([]);
    expect(logs.warn.join('\n')).toContain('Mail job j-1 ("Verify your e-mail address")');
    expect(logs.warn.join('\n')).toContain('attempt 3), retried later');

    mailer.next.push(Promise.reject(new Error('connection refused')));
    await expect(jobs.worker.handle({ sealed: data }, job('j-2', 2))).rejects.toThrow('refused');
    expect(logs.error).toHaveLength(1);
    expect(logs.error[0]).toContain('Mail job j-2');
    expect(logs.error[0]).toContain('attempt 4), given up');
    expect([...logs.warn, ...logs.error].join('\n')).not.toContain(CODE);
    expect([...logs.warn, ...logs.error].join('\n')).not.toContain(message.to);
  });

  it('gives up at once on a job no key opens', async () => {
    const foreign = new CredentialsCipher(
      loadConfig({ NODE_ENV: 'test', CREDENTIALS_ENCRYPTION_KEY: 'another key' }),
    );
    const sealed = foreign.sealSecrets({ message: JSON.stringify(message) })!;
    await jobs.worker.handle({ sealed }, job('j-x', 0));
    expect(mailer.calls).toEqual([]);
    expect(logs.error.join('\n')).toMatch(/Mail job j-x cannot be opened, given up/);
  });

  it('a job reaching this node while its own attempt is in flight waits for it', async () => {
    const smtp = deferred();
    mailer.next.push(smtp.promise);
    dispatcher.dispatch(message);
    await flush();
    expect(mailer.calls).toHaveLength(1);
    let handled = false;
    const handling = jobs.worker
      .handle(jobs.sent[0].data, job('job-1', 0))
      .then(() => (handled = true));
    await flush();
    expect(handled).toBe(false);
    smtp.resolve();
    await handling;
    expect(mailer.calls).toHaveLength(1); // not sent twice

    // ...and sends when that attempt failed.
    const failing = deferred();
    mailer.next.push(failing.promise);
    dispatcher.dispatch(message);
    await flush();
    const retry = jobs.worker.handle(jobs.sent[1].data, job('job-2', 0));
    failing.reject(new Error('451 later'));
    await retry;
    expect(mailer.calls).toHaveLength(3);
    await jobs.stopHooks[0]();
    expect(jobs.deleted).toEqual(['job-1']);
  });
});
