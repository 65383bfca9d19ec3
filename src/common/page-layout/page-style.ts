/**
 * The one look of every page and mail a customer or user sees: the public tracking pages,
 * the OAuth consent page and the notification e-mails. Plain CSS, no web fonts, no images;
 * a tracking page's builder colours override the `--tp-*` custom properties.
 */

/** Colours and sizes shared by the stylesheet and the e-mail layout (inline styles). */
export const PAGE_TOKENS = {
  background: '#f3f4f6',
  card: '#ffffff',
  border: '#d8dce3',
  text: '#1f2937',
  muted: '#4b5563',
  accent: '#1d4ed8',
  alert: '#b42318',
  notice: '#8a5a00',
  success: '#18794e',
  radius: '12px',
  font: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
} as const;

const t = PAGE_TOKENS;

/** The stylesheet (about 6 kB), inlined in each page under its CSP nonce. */
export const PAGE_CSS = `*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--tp-background-color,${t.background});color:var(--tp-card-font-font-color,${t.text});font:16px/1.5 var(--page-font,${t.font});overflow-wrap:anywhere}
a{color:var(--tp-card-links-color,${t.accent})}
img{max-width:100%;height:auto}
.skip{position:absolute;left:-999px;top:0;background:#fff;color:${t.text};padding:.5rem 1rem;z-index:2}
.skip:focus{left:0}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.site-header{background:var(--tp-header-background-color,${t.card});color:var(--header-text,${t.text});border-bottom:1px solid ${t.border}}
.site-header .bar,.site-footer{max-width:64rem;margin:0 auto;padding:.75rem 1rem;display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;justify-content:space-between}
.brand{display:flex;align-items:center;gap:.75rem;font-weight:600;font-size:1.1rem;color:inherit;text-decoration:none}
.brand img{max-height:2.5rem;width:auto}
.langs{display:flex;flex-wrap:wrap;gap:.25rem;margin:0;padding:0;list-style:none;font-size:.875rem}
.langs a{color:inherit;padding:.25rem .4rem;border-radius:4px}
.langs a[aria-current]{font-weight:700;text-decoration:none;outline:1px solid currentColor}
main{max-width:64rem;margin:0 auto;padding:1rem}
.grid{display:grid;gap:1rem}
@media (min-width:52rem){.grid{grid-template-columns:minmax(0,2fr) minmax(0,1fr)}}
.card,main.narrow{background:var(--tp-card-background-color,${t.card});border:var(--tp-card-border-width,1px) solid var(--tp-card-border-color,${t.border});border-radius:var(--tp-card-border-radius,${t.radius});padding:1.25rem;margin:0 0 1rem}
main.narrow{max-width:26rem;width:calc(100% - 2rem);margin:6vh auto;padding:1.5rem}
h1{font-size:1.6rem;line-height:1.2;margin:0 0 .25rem}
h2{font-size:1.1rem;margin:0 0 .75rem}
p{margin:0 0 .75rem}
.muted{color:${t.muted}}
.status-line{font-size:1.05rem;margin-bottom:1rem}
.eta{display:block;font-size:1.35rem;font-weight:700}
.facts{display:grid;grid-template-columns:repeat(auto-fit,minmax(8.5rem,1fr));gap:.75rem 1rem;margin:1rem 0 0}
.facts dt{font-size:.8rem;color:${t.muted};text-transform:uppercase;letter-spacing:.03em}
.facts dd{margin:0;font-weight:600}
.facts .wide{grid-column:1/-1}
.steps{list-style:none;margin:1rem 0 0;padding:0;display:grid;gap:.5rem}
.steps li{display:flex;align-items:center;gap:.6rem;color:${t.muted}}
.steps .dot{flex:none;width:1.6rem;height:1.6rem;border-radius:50%;border:2px solid ${t.border};background:${t.card};display:grid;place-items:center;font-size:.85rem;font-weight:700;color:${t.card}}
.steps .done{color:${t.text}}
.steps .done .dot{background:${t.success};border-color:${t.success}}
.steps .current{color:${t.text};font-weight:700}
.steps .current .dot{background:var(--tp-track-button-background-color,${t.accent});border-color:var(--tp-track-button-background-color,${t.accent});color:var(--button-text,#fff)}
.steps .alert{color:${t.alert}}
.steps .alert .dot{background:${t.alert};border-color:${t.alert};color:#fff}
.steps .notice{color:${t.notice}}
.steps .notice .dot{background:${t.notice};border-color:${t.notice};color:#fff}
@media (min-width:36rem){.steps{grid-template-columns:repeat(5,minmax(0,1fr));gap:.25rem}.steps li{flex-direction:column;text-align:center;font-size:.85rem}}
.timeline{list-style:none;margin:0;padding:0}
.timeline li{position:relative;padding:0 0 1rem 1.5rem;border-left:2px solid ${t.border};margin-left:.4rem}
.timeline li:last-child{border-left-color:transparent;padding-bottom:0}
.timeline li::before{content:"";position:absolute;left:-.45rem;top:.3rem;width:.8rem;height:.8rem;border-radius:50%;background:${t.border}}
.timeline li:first-child::before{background:var(--tp-track-button-background-color,${t.accent})}
.timeline time{display:block;font-size:.85rem;color:${t.muted}}
.timeline strong{display:block}
details{margin:0 0 .75rem}
summary{cursor:pointer;font-weight:600;color:var(--tp-card-links-color,${t.accent});margin:0 0 1rem}
.items{list-style:none;margin:0;padding:0;display:grid;gap:.75rem}
.items li{display:flex;gap:.75rem;align-items:center}
.items .ph{flex:none;position:relative;overflow:hidden;width:3.5rem;height:3.5rem;border-radius:8px;background:${t.background};display:grid;place-items:center;font-weight:700;color:${t.muted}}
.items .ph img{position:absolute;inset:0;width:100%;height:100%;object-fit:cover}
.parcels{list-style:none;margin:0;padding:0;display:grid;gap:.5rem}
.parcels a{display:flex;justify-content:space-between;gap:.5rem;flex-wrap:wrap}
.tag{font-size:.8rem;padding:.1rem .5rem;border-radius:999px;background:${t.background};color:${t.text}}
.tag.alert{color:${t.alert}}
.tag.done{color:${t.success}}
label{display:block;margin:.8rem 0 .25rem;font-weight:600}
input[type=text],input[type=email],input[type=password],input[type=search],textarea{width:100%;font:inherit;padding:.6rem .7rem;border:1px solid #6b7280;border-radius:8px;background:#fff;color:${t.text}}
textarea{min-height:5rem;resize:vertical}
button,.button{display:inline-block;font:inherit;font-weight:600;padding:.65rem 1.2rem;border-radius:var(--tp-track-button-border-radius,8px);border:0;background:var(--tp-track-button-background-color,${t.accent});color:var(--button-text,#fff);cursor:pointer;text-decoration:none}
button.secondary{background:${t.background};color:${t.text};border:1px solid #6b7280}
:focus-visible{outline:3px solid ${t.accent};outline-offset:2px}
.actions{display:flex;flex-wrap:wrap;gap:.5rem;margin-top:1.2rem}
.err,.alert-box{color:${t.alert};font-weight:600}
.ok{color:${t.success};font-weight:600}
fieldset{border:0;margin:0;padding:0}
legend{font-weight:600;padding:0}
.stars{display:inline-flex;flex-direction:row-reverse;gap:.15rem}
.stars input{position:absolute;opacity:0;width:1px;height:1px}
.stars label{margin:0;font-size:2rem;line-height:1;color:#6b7280;cursor:pointer}
.stars input:checked~label,.stars label:hover,.stars label:hover~label{color:#a15c00}
.stars input:focus-visible+label{outline:3px solid ${t.accent};outline-offset:2px}
hr{border:0;border-top:1px solid ${t.border};margin:1.5rem 0}
.site-footer{font-size:.85rem;color:${t.muted}}
`;
