const escape = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

const STYLE = `body{font-family:system-ui,sans-serif;background:#f4f5f7;margin:0}
main{max-width:360px;margin:10vh auto;background:#fff;padding:2rem;border-radius:8px;box-shadow:0 1px 4px #0002}
button{padding:.6rem 1rem}`;

/**
 * The page the verification link opens. Verifying takes a click (a POST), so link
 * scanners that fetch every URL in a mail do not spend the code.
 */
export function verifyEmailPage(code: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Verify your e-mail address</title><style>${STYLE}</style></head>
<body><main><h1>Verify your e-mail address</h1>
<form method="post" action="/security/verify-email">
<input type="hidden" name="code" value="${escape(code)}">
<button type="submit">Verify my address</button>
</form></main></body></html>`;
}

export function verifiedPage(): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Address verified</title><style>${STYLE}</style></head>
<body><main><h1>Your e-mail address is verified</h1><p>You can close this page and sign in.</p></main></body></html>`;
}
