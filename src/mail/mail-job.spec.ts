import { loadConfig } from '../config/load-config';
import { CredentialsCipher } from '../credentials/credentials-cipher';
import { attemptsMade, isLastRun, mailRetryPolicy, openMail, sealMail } from './mail-job';
import type { MailMessage } from './mailer';

const cipher = (env: NodeJS.ProcessEnv = {}) =>
  new CredentialsCipher(loadConfig({ NODE_ENV: 'test', ...env }));

const message: MailMessage = {
  to: 'someone@example.test',
  subject: 'Reset your password',
  text: 'Code: s3cr3t-c0de\nhttps://api.example.test/security/forgot-password?code=s3cr3t-c0de\n',
  html: '<a href="https://api.example.test/x?code=s3cr3t-c0de">reset</a>',
};

describe('mail job payload', () => {
  it('seals the whole message: neither code, link nor recipient is readable', () => {
    const data = sealMail(cipher(), message);
    const stored = JSON.stringify(data);
    expect(Object.keys(data)).toEqual(['sealed']);
    expect(data.sealed).toMatch(/^v2:[0-9a-f]{8}:/);
    for (const clear of ['s3cr3t-c0de', 'someone@example.test', 'forgot-password', 'Reset']) {
      expect(stored).not.toContain(clear);
    }
  });

  it('opens to the same message, extra fields (copies) included', () => {
    const box = cipher();
    expect(openMail(box, sealMail(box, message))).toEqual(message);
    const withCopies = { ...message, html: undefined, cc: ['a@example.test'] } as MailMessage;
    expect(openMail(box, JSON.parse(JSON.stringify(sealMail(box, withCopies))))).toEqual({
      to: message.to,
      subject: message.subject,
      text: message.text,
      cc: ['a@example.test'],
    });
  });

  it('opens after a key rotation while the old key is listed as previous', () => {
    const sealed = sealMail(cipher({ CREDENTIALS_ENCRYPTION_KEY: 'old key' }), message);
    const rotated = cipher({
      CREDENTIALS_ENCRYPTION_KEY: 'new key',
      CREDENTIALS_ENCRYPTION_KEY_PREVIOUS: 'old key',
    });
    expect(openMail(rotated, sealed)).toEqual(message);
    expect(() => openMail(cipher({ CREDENTIALS_ENCRYPTION_KEY: 'new key' }), sealed)).toThrow(
      /unknown key/,
    );
  });

  it('refuses tampered, foreign and malformed payloads', () => {
    const box = cipher();
    const { sealed } = sealMail(box, message);
    const parts = sealed.split(':');
    parts[4] = parts[4].slice(0, -2) + (parts[4].endsWith('AA') ? 'BB' : 'AA');
    expect(() => openMail(box, { sealed: parts.join(':') })).toThrow();
    expect(() => openMail(box, { to: message.to, text: message.text })).toThrow(/not a sealed/);
    expect(() => openMail(box, null)).toThrow(/not a sealed/);
    const noText = box.sealSecrets({ message: JSON.stringify({ to: 'x@example.test' }) });
    expect(() => openMail(box, { sealed: noText })).toThrow(/without subject/);
  });
});

describe('mail retry policy', () => {
  it('derives the job schedule from MAIL_RETRY_DELAY_SECONDS and MAIL_MAX_ATTEMPTS', () => {
    expect(mailRetryPolicy(loadConfig({ NODE_ENV: 'test' }))).toEqual({
      startAfterSeconds: 30,
      retryLimit: 6,
      retryDelay: 30,
      retryBackoff: true,
    });
    expect(mailRetryPolicy({ mailRetryDelaySeconds: 1, mailMaxAttempts: 2 })).toEqual({
      startAfterSeconds: 1,
      retryLimit: 0,
      retryDelay: 1,
      retryBackoff: true,
    });
  });

  it('counts the immediate attempt, and knows the last run', () => {
    const { retryLimit } = mailRetryPolicy({ mailRetryDelaySeconds: 5, mailMaxAttempts: 4 });
    const runs = [0, 1, 2].map((retryCount) => ({ retryCount, retryLimit }));
    expect(runs.map(attemptsMade)).toEqual([2, 3, 4]);
    expect(runs.map(isLastRun)).toEqual([false, false, true]);
  });
});
