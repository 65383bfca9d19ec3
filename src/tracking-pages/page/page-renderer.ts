import { Injectable } from '@nestjs/common';
import { Eta } from 'eta';
import type { Response } from 'express';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PAGE_CSS } from '../../common/page-layout/page-style';
import type { HtmlPage } from '../../hydra/actions/action-result';
import type { PageBrand } from './page-brand';

/**
 * Beside this file in src/ and, copied by `npm run build` (postbuild), in dist/; a dist/
 * compiled without the copy (`tsc` alone, as `start:dev` does) reads them from src/.
 */
export const TEMPLATES_DIR = [
  join(__dirname, 'templates'),
  join(__dirname, '..', '..', '..', '..', 'src', 'tracking-pages', 'page', 'templates'),
].find((dir) => existsSync(dir))!;

/**
 * Localises the page's times to the browser's zone when the link names none (`?tz=`). The
 * server already rendered them in a labelled zone: without JavaScript nothing is missing.
 */
const LOCAL_TIMES_SCRIPT = `(function(){var d=document.documentElement,z;
if(d.hasAttribute('data-tz-fixed'))return;try{z=Intl.DateTimeFormat().resolvedOptions().timeZone}catch(e){return}
if(!z||z===d.getAttribute('data-tz'))return;var l=d.lang,
f={dt:new Intl.DateTimeFormat(l,{dateStyle:'medium',timeStyle:'short',timeZone:z}),day:new Intl.DateTimeFormat(l,{weekday:'long',day:'numeric',month:'long',timeZone:z})};
document.querySelectorAll('time[data-f]').forEach(function(e){var v=new Date(e.getAttribute('datetime'));if(!isNaN(v)&&f[e.getAttribute('data-f')])e.textContent=f[e.getAttribute('data-f')].format(v)});
var n=document.getElementById('tz-note');if(n){var p=new Intl.DateTimeFormat(l,{timeZoneName:'long',timeZone:z}).formatToParts(new Date()).filter(function(x){return x.type==='timeZoneName'})[0];
n.textContent=n.getAttribute('data-t').replace('{zone}',p?p.value:z)}})();`;

/** The Content-Security-Policy of a page: its own nonce'd style and script, own images. */
export function pageCsp(nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "img-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The `:root` rule of a brand: builder variables, font and readable text colours. */
export function brandCss(brand: PageBrand): string {
  const vars = [
    ...brand.cssVariables,
    ['--page-font', brand.fontFamily],
    ['--header-text', brand.headerText],
    ['--button-text', brand.buttonText],
  ];
  const css = `:root{${vars.map(([k, v]) => `${k}:${v}`).join(';')}}`;
  // Every value was validated (hex colours, pixel sizes, a family-name pattern); this keeps a
  // future mistake from ever closing the style element.
  if (/[<>{}\\]/.test(css.slice(6, -1))) throw new Error('unsafe brand CSS');
  return css;
}

export type PageTemplate = 'shipment' | 'home' | 'not-found';

export interface PageFrame {
  lang: string;
  timeZone: string;
  tzFixed: boolean;
  pageTitle: string;
  brand: PageBrand;
  m: { skipToContent: string; language: string };
  languages: Array<{ lang: string; name: string; href: string; current: boolean }>;
}

/**
 * Renders the public pages with Eta (templates under ./templates, values escaped by
 * default) and sends them with a per-response nonce in a strict CSP.
 */
@Injectable()
export class PageRenderer {
  private readonly eta = new Eta({
    views: TEMPLATES_DIR,
    cache: true,
    autoEscape: true,
    rmWhitespace: true,
  });

  render<T extends PageFrame>(template: PageTemplate, data: T, nonce: string): string {
    return this.eta.render(template, {
      ...data,
      // Search results and shared links show it; the title says which shipment or shop.
      description:
        data.brand.title && !data.pageTitle.includes(data.brand.title)
          ? `${data.pageTitle} – ${data.brand.title}`
          : data.pageTitle,
      nonce,
      css: PAGE_CSS + brandCss(data.brand),
      script: template === 'shipment' ? LOCAL_TIMES_SCRIPT : null,
    });
  }

  /** The page with its status and headers, for `{ html: true }` actions. */
  page<T extends PageFrame>(status: number, template: PageTemplate, data: T): HtmlPage {
    const nonce = randomBytes(16).toString('base64');
    return {
      html: this.render(template, data, nonce),
      status,
      headers: {
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy': pageCsp(nonce),
        'Cache-Control': 'no-store',
        'Referrer-Policy': 'no-referrer',
      },
    };
  }
}

/** Writes a page outside a declared action (the custom-domain middleware's home). */
export function sendPage(res: Response, page: HtmlPage): void {
  res.status(page.status ?? 200);
  for (const [name, value] of Object.entries(page.headers ?? {})) res.setHeader(name, value);
  res.send(page.html);
}
