import MailComposer from 'nodemailer/lib/mail-composer';
import {
  allRecipients,
  notificationMessage,
  notificationRecipients,
  UNDISCLOSED_RECIPIENTS,
} from './notification-message';

const mail = { subject: 'Parcel TM1 delivered', text: 'Hi', html: '<p>Hi</p>' };

/** The message as nodemailer's SMTP transports compose it: raw headers and the envelope. */
async function composed(message: ReturnType<typeof notificationMessage>) {
  const node = new MailComposer({ from: 'shop@example.com', ...message }).compile();
  const raw = (await node.build()).toString('utf8');
  return { headers: raw.split('\r\n\r\n')[0], envelope: node.getEnvelope() };
}

describe('notification recipients and message', () => {
  it('puts the customer in To, cc in Cc and bcc as blind copies, each address once', () => {
    const r = notificationRecipients(
      'buyer@example.com',
      ['boss@example.com', 'BUYER@example.com', 'team@example.com'],
      ['audit@example.com', 'boss@example.com', ' audit@example.com '],
    );
    expect(r).toEqual({
      to: 'buyer@example.com',
      cc: ['boss@example.com', 'team@example.com'],
      bcc: ['audit@example.com'],
    });
    expect(allRecipients(r)).toEqual([
      'buyer@example.com',
      'boss@example.com',
      'team@example.com',
      'audit@example.com',
    ]);
  });

  it('has no recipient without a customer address, cc or bcc', () => {
    const r = notificationRecipients(null, [], []);
    expect(r).toEqual({ to: null, cc: [], bcc: [] });
    expect(allRecipients(r)).toEqual([]);
    expect(allRecipients(notificationRecipients('  ', [''], []))).toEqual([]);
  });

  it('builds one message: Cc visible, Bcc only in the envelope', async () => {
    const message = notificationMessage(
      notificationRecipients('buyer@example.com', ['boss@example.com'], ['audit@example.com']),
      mail,
    );
    expect(message).toEqual({
      to: 'buyer@example.com',
      cc: ['boss@example.com'],
      bcc: ['audit@example.com'],
      ...mail,
    });
    const { headers, envelope } = await composed(message);
    expect(headers).toMatch(/^To: buyer@example\.com$/m);
    expect(headers).toMatch(/^Cc: boss@example\.com$/m);
    expect(headers).not.toMatch(/audit@example\.com/);
    expect(envelope).toEqual({
      from: 'shop@example.com',
      to: ['buyer@example.com', 'boss@example.com', 'audit@example.com'],
    });
  });

  it('leaves Cc and Bcc out when there are none', async () => {
    const message = notificationMessage(notificationRecipients('buyer@example.com', [], []), mail);
    expect(message).toEqual({ to: 'buyer@example.com', ...mail });
    const { headers, envelope } = await composed(message);
    expect(headers).not.toMatch(/^(Cc|Bcc):/m);
    expect(envelope.to).toEqual(['buyer@example.com']);
  });

  it('addresses copies only to undisclosed recipients when the customer has no address', async () => {
    const message = notificationMessage(
      notificationRecipients(null, [], ['audit@example.com', 'owner@example.com']),
      mail,
    );
    expect(message.to).toBe(UNDISCLOSED_RECIPIENTS);
    const { headers, envelope } = await composed(message);
    expect(headers).toMatch(/^To: "?undisclosed-recipients"?:;$/m);
    expect(headers).not.toMatch(/audit@|owner@/);
    expect(envelope.to).toEqual(['audit@example.com', 'owner@example.com']);
  });
});
