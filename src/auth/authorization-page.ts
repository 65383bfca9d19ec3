import { PAGE_CSS } from '../common/page-layout/page-style';

/** The login and consent page of the authorization-code flow: one small, self-contained form. */
export interface AuthorizationPageInput {
  clientName: string;
  /** Hidden fields carried to the POST (client_id, redirect_uri, state, PKCE...). */
  params: Record<string, string>;
  email?: string;
  error?: string;
}

const escape = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** The look of the public tracking pages (one stylesheet for every page people see). */
const STYLE = PAGE_CSS;

export function authorizationPage(input: AuthorizationPageInput): string {
  const hidden = Object.entries(input.params)
    .map(([k, v]) => `<input type="hidden" name="${escape(k)}" value="${escape(v)}">`)
    .join('\n    ');
  const name = escape(input.clientName);
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Authorize ${name}</title><style>${STYLE}</style></head>
<body><main class="narrow">
  <h1>Sign in to allow <strong>${name}</strong> to access your account</h1>
  <p>${name} will be able to read and change your workspaces' data on your behalf.</p>
  ${input.error ? `<p class="err" role="alert">${escape(input.error)}</p>` : ''}
  <form method="post" action="/oauth/v2/auth">
    ${hidden}
    <label for="email">E-mail</label>
    <input id="email" name="email" type="email" autocomplete="username" required value="${escape(input.email ?? '')}">
    <label for="password">Password</label>
    <input id="password" name="password" type="password" autocomplete="current-password" required>
    <div class="actions">
      <button type="submit" name="allowed" value="true">Sign in and allow</button>
      <button type="submit" name="allowed" value="false" class="secondary" formnovalidate>Deny</button>
    </div>
  </form>
</main></body></html>`;
}

export function errorPage(title: string, description: string): string {
  return messagePage(title, description, 'err');
}

/** The same look for a page that reports no error (a finished flow). */
export function noticePage(title: string, description: string): string {
  return messagePage(title, description, null);
}

function messagePage(title: string, description: string, className: string | null): string {
  const attribute = className ? ` class="${className}"` : '';
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title><style>${STYLE}</style></head>
<body><main class="narrow"><h1>${escape(title)}</h1><p${attribute}>${escape(description)}</p></main></body></html>`;
}
