import { parseReviewForm, reviewFormRedirect } from './review-form';

describe('review form', () => {
  it('reads a score of 1 to 5, a clean comment, the language and zone', () => {
    expect(
      parseReviewForm({
        score: '4',
        comment: 'ok\u0000\n fine',
        lang: 'de-AT',
        tz: 'Europe/Vienna',
      }),
    ).toEqual({ score: 4, comment: 'ok\n fine', lang: 'de', tz: 'Europe/Vienna' });
    for (const score of ['0', '6', '4.5', ' 4', ['4'], undefined])
      expect(parseReviewForm({ score }).score).toBeNull();
    expect(parseReviewForm(undefined)).toEqual({
      score: null,
      comment: null,
      lang: null,
      tz: null,
    });
  });

  it('redirects back to the page with the outcome', () => {
    const form = parseReviewForm({ lang: 'fr', tz: 'America/New_York' });
    expect(reviewFormRedirect('a/b', form, 'thanks')).toBe(
      '/t/a%2Fb?review=thanks&lang=fr&tz=America%2FNew_York#review',
    );
    expect(reviewFormRedirect('h', parseReviewForm({}), 'invalid')).toBe(
      '/t/h?review=invalid#review',
    );
  });
});
