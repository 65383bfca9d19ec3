import { htmlToText, renderHtml, renderText, unknownVariables } from './email-template';
import { conditionHolds, parseCondition } from './notification-condition';

describe('email templates', () => {
  it('fills placeholders, with or without spaces', () => {
    expect(
      renderText('Parcel {{trackingNumber}} is {{ trackingStatusTitle }}', {
        trackingNumber: 'TM1',
        trackingStatusTitle: 'Delivered',
      }),
    ).toBe('Parcel TM1 is Delivered');
  });

  it('escapes values in HTML but not the template itself', () => {
    expect(renderHtml('<b>{{firstName}}</b>', { firstName: '<script>x</script>' })).toBe(
      '<b>&lt;script&gt;x&lt;/script&gt;</b>',
    );
  });

  it('renders missing values and unknown placeholders as nothing', () => {
    expect(renderText('[{{city}}][{{nope}}]', {})).toBe('[][]');
  });

  it('reports unknown placeholders once each', () => {
    expect(unknownVariables('{{a}} {{trackingNumber}} {{ a }} {{b}}')).toEqual(['a', 'b']);
    expect(unknownVariables(null)).toEqual([]);
  });

  it('turns HTML into readable text', () => {
    expect(
      htmlToText('<p>Hello&nbsp;<b>Ann</b></p><p><a href="https://x.test/t/1">Track</a></p>'),
    ).toBe('Hello Ann\nTrack (https://x.test/t/1)');
  });
});

describe('notification conditions', () => {
  const values = { trackingStatus: 'delivered', previousStatus: 'in_transit', countryIso2: 'US' };

  it('holds when empty', () => {
    expect(conditionHolds(null, values)).toBe(true);
    expect(conditionHolds('  ', values)).toBe(true);
  });

  it('compares with ==, !=, in and not in, joined by and', () => {
    expect(conditionHolds('trackingStatus == delivered', values)).toBe(true);
    expect(conditionHolds('trackingStatus != delivered', values)).toBe(false);
    expect(conditionHolds('countryIso2 in US, CA', values)).toBe(true);
    expect(conditionHolds('countryIso2 not in "US"', values)).toBe(false);
    expect(conditionHolds('previousStatus == in_transit AND countryIso2 in CA,US', values)).toBe(
      true,
    );
    expect(conditionHolds('previousStatus == in_transit and city == Paris', values)).toBe(false);
  });

  it('explains what it cannot read', () => {
    expect(parseCondition('trackingStatus ~ x')).toMatch(/Cannot read/);
    expect(parseCondition('colour == red')).toBe('Unknown variable "colour".');
    expect(conditionHolds('colour == red', values)).toBe(false);
  });
});

describe('htmlToText on adversarial input', () => {
  it.each([
    ['200 000 "<"', '<'.repeat(200_000)],
    ['unclosed links', '<a href="x">'.repeat(50_000)],
    ['blank runs', ' '.repeat(200_000) + 'x'],
    ['open tags without end', '<p '.repeat(100_000)],
  ])('returns for %s', (_name, html) => {
    expect(typeof htmlToText(html)).toBe('string');
  });

  it('keeps the text of stray "<"', () => {
    expect(htmlToText('a < b <<< c')).toBe('a < b <<< c');
    expect(htmlToText('<p>x</p>\n\n\n\n<p>y</p>')).toBe('x\n\ny');
  });
});
