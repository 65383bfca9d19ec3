import { PAGE_TOKENS as t } from './page-style';

const escape = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/**
 * A mail body (HTML fragment, already rendered and escaped) in the pages' look: the same
 * colours, card and font as the tracking page, as inline styles and a centred table (mail
 * clients drop most of a `<style>` element and ignore CSS grid).
 */
export function emailDocument(bodyHtml: string, opts: { title?: string | null } = {}): string {
  const title = opts.title ? escape(opts.title) : '';
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title}</title><style>a{color:${t.accent}}</style></head>
<body style="margin:0;padding:0;background:${t.background};color:${t.text};font:16px/1.5 ${t.font.replace(/"/g, "'")}">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:${t.background}"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:${t.card};border:1px solid ${t.border};border-radius:${t.radius}">
${title ? `<tr><td style="padding:16px 24px;border-bottom:1px solid ${t.border};font-weight:600;font-size:18px">${title}</td></tr>\n` : ''}<tr><td style="padding:20px 24px">
${bodyHtml}
</td></tr></table>
</td></tr></table>
</body></html>`;
}
