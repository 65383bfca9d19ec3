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

const STYLE = `body{font-family:system-ui,sans-serif;background:#f4f5f7;margin:0}
main{max-width:360px;margin:10vh auto;background:#fff;padding:2rem;border-radius:8px;box-shadow:0 1px 4px #0002}
h1{font-size:1.2rem}label{display:block;margin:.8rem 0 .2rem}input[type=email],input[type=password]{width:100%;padding:.5rem;box-sizing:border-box}
.err{color:#b00020}.actions{display:flex;gap:.5rem;margin-top:1.2rem}button{flex:1;padding:.6rem}`;

export function authorizationPage(input: AuthorizationPageInput): string {
  const hidden = Object.entries(input.params)
    .map(([k, v]) => `<input type="hidden" name="${escape(k)}" value="${escape(v)}">`)
    .join('\n    ');
  const name = escape(input.clientName);
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Authorize ${name}</title><style>${STYLE}</style></head>
<body><main>
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
      <button type="submit" name="allowed" value="false" formnovalidate>Deny</button>
    </div>
  </form>
</main></body></html>`;
}

export function errorPage(title: string, description: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title><style>${STYLE}</style></head>
<body><main><h1>${escape(title)}</h1><p class="err">${escape(description)}</p></main></body></html>`;
}
