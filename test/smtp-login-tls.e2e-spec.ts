import { createTransport } from 'nodemailer';
import { smtpSettings, smtpTransportOptions, type SmtpSettings } from '../src/mail/smtp-transport';
import { startTestSmtp, type TestSmtp } from './support/smtp';

/**
 * A workspace's SMTP login never crosses the internet in clear: the transport options for a
 * public address require STARTTLS, and nodemailer then sends no AUTH to a server that does not
 * offer it. Checked against a real SMTP server on loopback that offers no STARTTLS (the options
 * are built for a public address, only the connection is pointed at the local server).
 */
describe('SMTP login and TLS', () => {
  let server: TestSmtp;
  const settings = smtpSettings(
    { host: 'smtp.shop.example', port: 587, username: 'shop', fromEmail: 'orders@shop.example' },
    true,
  ) as SmtpSettings;

  beforeAll(async () => {
    server = await startTestSmtp({ auth: { user: 'shop', pass: 's3cret' } });
  });
  afterAll(() => server.close());

  const send = (address: string) => {
    const transport = createTransport({
      ...smtpTransportOptions(settings, 's3cret', address),
      host: '127.0.0.1',
      port: server.port,
    });
    return transport
      .sendMail({
        from: settings.fromEmail,
        to: 'buyer@example.test',
        subject: 'Shipped',
        text: 'x',
      })
      .finally(() => transport.close());
  };

  it('refuses to log in without STARTTLS when the server is public', async () => {
    await expect(send('93.184.216.34')).rejects.toThrow(/STARTTLS/);
    expect(server.authAttempts).toEqual([]);
    expect(server.messages).toEqual([]);
  });

  it('logs in over the plain connection to a private relay the operator allowed', async () => {
    await send('10.0.0.25');
    expect(server.authAttempts).toEqual([{ method: 'PLAIN', user: 'shop', ok: true }]);
    expect(server.messages.map((m) => m.to)).toEqual([['buyer@example.test']]);
  });
});
