import { composeEmail } from './email-composer';

describe('composeEmail', () => {
  it('frames the body in the tracking page look, linking the tracking page', () => {
    const mail = composeEmail(
      { event: 'shipment.delivered', subject: null, body: null },
      { firstName: 'Alex', workspaceTitle: 'Acme <Outdoor>', trackingUrl: 'https://t.example/t/h' },
    );
    expect(mail.html).toMatch(/^<!DOCTYPE html>/);
    expect(mail.html).toContain('Acme &lt;Outdoor&gt;');
    expect(mail.html).toMatch(/<a href="https:\/\/t\.example\/t\/h" style="display:inline-block;/);
    expect(mail.text).toContain('Hello Alex,');
    expect(mail.text).toContain('Track your parcel (https://t.example/t/h)');
    expect(mail.text).not.toMatch(/color:|<!DOCTYPE/);
  });
});
