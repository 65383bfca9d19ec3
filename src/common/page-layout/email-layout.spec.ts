import { emailDocument } from './email-layout';
import { PAGE_TOKENS } from './page-style';

describe('emailDocument', () => {
  it('wraps a body in the pages look, escaping the title', () => {
    const html = emailDocument('<p>Hello</p>', { title: 'Acme <Store>' });
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).toContain('<p>Hello</p>');
    expect(html).toContain('Acme &lt;Store&gt;');
    expect(html).toContain(PAGE_TOKENS.card);
    expect(emailDocument('<p>x</p>')).not.toContain('border-bottom');
  });
});
