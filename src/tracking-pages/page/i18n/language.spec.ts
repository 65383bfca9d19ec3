import { acceptedLanguages, negotiateLanguage, pageLanguageOf } from './language';
import { MESSAGES, PAGE_LANGUAGES, fill } from './messages';

describe('page language', () => {
  it('maps tags to the languages the page speaks', () => {
    expect(pageLanguageOf('pt-BR')).toBe('pt');
    expect(pageLanguageOf('DE_at')).toBe('de');
    expect(pageLanguageOf('nl')).toBeNull();
    expect(pageLanguageOf(['de'])).toBeNull();
  });

  it('orders Accept-Language ranges by quality, then by position', () => {
    expect(acceptedLanguages('nl;q=0.9, fr-CH, de;q=0.9, *;q=0.1, it;q=0')).toEqual([
      'fr-CH',
      'nl',
      'de',
    ]);
    expect(acceptedLanguages(undefined)).toEqual([]);
  });

  it('prefers ?lang=, then Accept-Language, then the page default, then English', () => {
    expect(negotiateLanguage({ query: 'ru', acceptLanguage: 'de' })).toBe('ru');
    expect(negotiateLanguage({ query: 'xx', acceptLanguage: 'nl, es;q=0.5' })).toBe('es');
    expect(negotiateLanguage({ acceptLanguage: 'nl', pageDefault: 'it' })).toBe('it');
    expect(negotiateLanguage({ acceptLanguage: 'nl', pageDefault: 'zz' })).toBe('en');
  });

  it('has every message in every language, and different words for German', () => {
    const keys = (o: object): string[] =>
      Object.entries(o).flatMap(([k, v]) =>
        typeof v === 'object' ? keys(v).map((s) => `${k}.${s}`) : [k],
      );
    const english = keys(MESSAGES.en).sort();
    for (const lang of PAGE_LANGUAGES) expect(keys(MESSAGES[lang]).sort()).toEqual(english);
    expect(MESSAGES.de.statuses.delivered.title).not.toBe(MESSAGES.en.statuses.delivered.title);
  });

  it('fills placeholders', () => {
    expect(fill('Order {number}', { number: 'A-1' })).toBe('Order A-1');
    expect(fill('{x} and {y}', { x: 1 })).toBe('1 and ');
  });
});
