import {
  receiptOf,
  redactSecrets,
  smtpAddress,
  SmtpRefusedError,
  smtpServerLabel,
  smtpSettings,
  smtpTransportOptions,
  type SmtpSettings,
} from './smtp-transport';

const complete = {
  host: 'SMTP.Example.com',
  port: 2525,
  secure: false,
  username: 'shop',
  fromEmail: 'shop@example.com',
};

describe('SMTP credentials to transport', () => {
  describe('smtpSettings', () => {
    it('takes complete parameters', () => {
      expect(smtpSettings(complete, true)).toEqual({
        host: 'smtp.example.com',
        port: 2525,
        secure: false,
        username: 'shop',
        fromEmail: 'shop@example.com',
      });
    });

    it('defaults the port to 465 with implicit TLS and 587 without', () => {
      const { port: _port, ...noPort } = complete;
      expect(smtpSettings({ ...noPort, secure: true }, true)).toMatchObject({
        port: 465,
        secure: true,
      });
      expect(smtpSettings(noPort, true)).toMatchObject({ port: 587, secure: false });
    });

    it('needs no username (no AUTH) but a password with one', () => {
      const { username: _u, ...anonymous } = complete;
      expect(smtpSettings(anonymous, false)).toMatchObject({ username: null });
      expect(smtpSettings(complete, false)).toEqual({
        problem: 'the SMTP credentials have a username but no secrets.password',
      });
    });

    it('names what is missing or out of range', () => {
      expect(smtpSettings({}, true)).toEqual({
        problem: 'the SMTP credentials lack parameters.host and parameters.fromEmail',
      });
      expect(smtpSettings({ ...complete, fromEmail: ' ' }, true)).toEqual({
        problem: 'the SMTP credentials lack parameters.fromEmail',
      });
      expect(smtpSettings({ ...complete, port: 0 }, true)).toEqual({
        problem: "the SMTP credentials' port 0 is not a port from 1 to 65535",
      });
    });
  });

  describe('smtpTransportOptions', () => {
    const settings = smtpSettings(complete, true) as SmtpSettings;
    /** A public address (only written into options here, never connected to). */
    const PUBLIC = '93.184.216.34';

    it('connects to the checked address, verifies TLS against the host name, authenticates', () => {
      expect(smtpTransportOptions(settings, 's3cret', PUBLIC)).toEqual({
        pool: true,
        maxConnections: 2,
        maxMessages: 100,
        host: PUBLIC,
        port: 2525,
        secure: false,
        requireTLS: true,
        tls: { servername: 'smtp.example.com' },
        auth: { user: 'shop', pass: 's3cret' },
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 30_000,
        logger: false,
        debug: false,
      });
    });

    it('lets a login go in clear only to a private address (an allowed relay)', () => {
      expect(smtpTransportOptions(settings, 's3cret', '10.1.2.3')).not.toHaveProperty('requireTLS');
      expect(smtpTransportOptions(settings, 's3cret', '127.0.0.1')).not.toHaveProperty(
        'requireTLS',
      );
      expect(
        smtpTransportOptions({ ...settings, secure: true }, 's3cret', PUBLIC),
      ).not.toHaveProperty('requireTLS');
      expect(smtpTransportOptions({ ...settings, username: null }, 'x', PUBLIC)).not.toHaveProperty(
        'requireTLS',
      );
    });

    it('sends no AUTH without a username', () => {
      const options = smtpTransportOptions({ ...settings, username: null }, 'x', '203.0.113.7');
      expect(options).not.toHaveProperty('auth');
    });

    it('labels the server host:port', () => {
      expect(smtpServerLabel(settings)).toBe('smtp.example.com:2525');
    });
  });

  describe('smtpAddress', () => {
    const lookup = (addresses: string[]) => async () =>
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

    it('answers the first address of a public host (documentation ranges are not public)', async () => {
      await expect(
        smtpAddress('smtp.example.com', [], lookup(['203.0.113.9', '198.51.100.1'])),
      ).rejects.toThrow(SmtpRefusedError); // documentation ranges count as reserved
      await expect(smtpAddress('smtp.example.com', [], lookup(['8.8.8.8']))).resolves.toBe(
        '8.8.8.8',
      );
      await expect(smtpAddress('8.8.4.4', [])).resolves.toBe('8.8.4.4');
    });

    it('refuses private, loopback and link-local targets unless allowed', async () => {
      await expect(smtpAddress('127.0.0.1', [])).rejects.toThrow(
        new SmtpRefusedError('refused: not a public address'),
      );
      await expect(
        smtpAddress('mail.internal', [], lookup(['8.8.8.8', '10.0.0.5'])),
      ).rejects.toThrow(new SmtpRefusedError('refused: not a public address'));
      await expect(smtpAddress('169.254.169.254', [])).rejects.toThrow(SmtpRefusedError);
      await expect(smtpAddress('127.0.0.1', ['127.0.0.1'])).resolves.toBe('127.0.0.1');
      await expect(
        smtpAddress('mail.internal', ['mail.internal'], lookup(['10.0.0.5'])),
      ).resolves.toBe('10.0.0.5');
    });

    it('reports DNS failures as ordinary (retryable) errors', async () => {
      const failing = async () => {
        throw new Error('getaddrinfo ENOTFOUND');
      };
      const error = await smtpAddress('nowhere.example', [], failing).catch((e: Error) => e);
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(SmtpRefusedError);
      expect((error as Error).message).toBe(
        'DNS lookup of nowhere.example failed: getaddrinfo ENOTFOUND',
      );
      await expect(smtpAddress('empty.example', [], lookup([]))).rejects.toThrow(
        /found no address/,
      );
    });
  });

  describe('redactSecrets', () => {
    it('removes the password as written, base64-encoded and inside the AUTH PLAIN token', () => {
      const password = 'hunter2-long';
      const plain = Buffer.from(`\u0000shop\u0000${password}`).toString('base64');
      const login = Buffer.from(password).toString('base64');
      const text = `Invalid login: 535 for ${password}; C: AUTH PLAIN ${plain}; C: ${login}`;
      const out = redactSecrets(text, { password }, 'shop');
      expect(out).toBe('Invalid login: 535 for ********; C: AUTH PLAIN ********; C: ********');
      expect(out).not.toContain(password);
    });

    it('leaves other text alone and ignores empty secrets', () => {
      expect(redactSecrets('Connection refused', { password: '' })).toBe('Connection refused');
    });
  });

  it('reads accepted and rejected recipients from nodemailer info', () => {
    expect(
      receiptOf({
        accepted: ['a@example.com', { name: 'B', address: 'b@example.com' }],
        rejected: ['c@example.com'],
      }),
    ).toEqual({ accepted: ['a@example.com', 'b@example.com'], rejected: ['c@example.com'] });
    expect(receiptOf({})).toEqual({ accepted: [], rejected: [] });
  });
});
