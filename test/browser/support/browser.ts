import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  chromium,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
} from 'playwright-core';

/** Debian's chromium (`apt-get install -y chromium`; .ci/run installs it). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Screenshots of a run, kept as artifacts (gitignored). */
export const ARTIFACTS_DIR = join(__dirname, '..', '..', '..', 'var', 'artifacts');

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  /** A new context (viewport, locale, time zone, JavaScript...) recording every request. */
  context(options?: BrowserContextOptions): Promise<BrowserContext>;
  /** Requests that were not for the app's loopback origin (aborted). */
  foreignRequests: string[];
  close(): Promise<void>;
}

/** Fails with a clear message when chromium is missing (browser specs never skip). */
export function requireChromium(): void {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `Chromium is not installed at ${CHROMIUM}: run \`apt-get update && apt-get install -y chromium\` ` +
        '(or set CHROMIUM_PATH). The browser specs need it and never skip.',
    );
}

/**
 * Chromium on a fresh profile (Playwright's launch passes a new temporary --user-data-dir and
 * removes it on close). Every request of every page is checked: anything not bound for
 * `allowedOrigin` is recorded and aborted, so a spec can assert that nothing left loopback.
 * Fails with a clear message when chromium is missing (browser specs never skip).
 */
export async function launchBrowser(allowedOrigin: string): Promise<Browser> {
  requireChromium();
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
  const foreignRequests: string[] = [];
  return {
    foreignRequests,
    async context(options: BrowserContextOptions = {}) {
      const context = await browser.newContext(options);
      await context.route('**/*', (route) => {
        const url = route.request().url();
        if (url.startsWith(`${allowedOrigin}/`) || url.startsWith('data:')) return route.continue();
        foreignRequests.push(url);
        return route.abort();
      });
      return context;
    },
    close: () => browser.close(),
  };
}

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** axe-core's WCAG 2.1 A/AA rules on the page as it is (injected through the DevTools protocol). */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  // Not mid-transition: a notification fading in has the contrast of its current opacity.
  await page.evaluate(`new Promise(requestAnimationFrame).then(() =>
    Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))))`);
  await page.evaluate(AXE_SOURCE);
  // A string, run in the page: the specs are compiled without the DOM library.
  return page.evaluate(`axe
    .run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })
    .then((r) => r.violations.map((v) => ({
      id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => String(n.target)),
    })))`) as Promise<AxeViolation[]>;
}

/** Whether the page scrolls sideways (it must not, from 360 px up). */
export function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(
    'document.documentElement.scrollWidth > window.innerWidth',
  ) as Promise<boolean>;
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const path = join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
