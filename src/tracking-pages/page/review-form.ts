import { timeZoneOf } from './dates';
import { pageLanguageOf } from './i18n/language';
import type { PageLanguage } from './i18n/messages';

/** What the page's review form posts (`application/x-www-form-urlencoded`, strings only). */
export interface ReviewForm {
  /** 1 to 5, or null when missing or anything else. */
  score: number | null;
  comment: string | null;
  lang: PageLanguage | null;
  tz: string | null;
}

export function parseReviewForm(body: unknown): ReviewForm {
  const b = (body !== null && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const score = typeof b.score === 'string' && /^[1-5]$/.test(b.score) ? Number(b.score) : null;
  return {
    score,
    // Control characters other than line breaks and tabs are dropped (NUL cannot be stored).
    comment: typeof b.comment === 'string' ? b.comment.replace(/[^\P{Cc}\t\n\r]/gu, '') : null,
    lang: pageLanguageOf(b.lang),
    tz: timeZoneOf(b.tz),
  };
}

/** Where the form goes back to: the page, saying how the review went, in the same language. */
export function reviewFormRedirect(
  hash: string,
  form: ReviewForm,
  outcome: 'thanks' | 'invalid',
): string {
  const query = new URLSearchParams({ review: outcome });
  if (form.lang) query.set('lang', form.lang);
  if (form.tz) query.set('tz', form.tz);
  return `/t/${encodeURIComponent(hash)}?${query.toString()}#review`;
}
