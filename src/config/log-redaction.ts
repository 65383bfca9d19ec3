/**
 * What must never reach a log line: secrets carried in URLs. Query parameters are matched by
 * name (case-insensitive, also as `a[b]` or inside a form/JSON-ish text), capability paths
 * (the path itself is the credential) by their route prefix. Everything else stays, so a line
 * still tells which route and which record it was about.
 */
export const SECRET_PARAMETERS = [
  'access_token',
  'refresh_token',
  'id_token',
  'token',
  'code',
  'code_verifier',
  'client_secret',
  'secret',
  'password',
  'newPassword',
  'plainPassword',
  'currentPassword',
  'invitationCode',
  'api_key',
  'apikey',
  'signature',
  'csrf',
  'csrf_token',
];

/** Routes whose last segments are capabilities: `/t/<hash>`, `/media/files/<dir>/<name>`. */
const CAPABILITY_PATHS: RegExp[] = [
  /(\/t\/)[^/?#\s"']+/g,
  /(\/media\/files\/)[^?#\s"']+/g,
  /(\/public\/tracking_page_links\/)[^/?#\s"']+/g,
];

export const REDACTED = '[REDACTED]';

const names = SECRET_PARAMETERS.map((n) => n.toLowerCase());

// `name=value` after `?`, `&` or `;` (query strings and form bodies); bounded, no backtracking
// across separators, so it is linear in the text's length.
const QUERY_PARAMETER = /([?&;])([^=&#\s"']{1,100})=([^&#\s"']*)/g;

function isSecretName(raw: string): boolean {
  let name = raw;
  try {
    name = decodeURIComponent(raw);
  } catch {
    // keep the raw name
  }
  name = name.toLowerCase().replace(/\[\]$/, '');
  const inner = /\[([^\]]*)\]$/.exec(name)?.[1];
  return names.includes(name) || (inner !== undefined && names.includes(inner));
}

/** `text` with secret query values and capability segments replaced by [REDACTED]. */
export function redactSecrets(text: string): string {
  let out = text.replace(QUERY_PARAMETER, (whole, sep: string, name: string) =>
    isSecretName(name) ? `${sep}${name}=${REDACTED}` : whole,
  );
  for (const pattern of CAPABILITY_PATHS) out = out.replace(pattern, `$1${REDACTED}`);
  return out;
}
