import { TrackingProviderError } from '../tracking-provider-error';
import type { ProviderCallContext } from './provider-adapter';
import { providerBaseUrlProblem, providerUrl } from './provider-url';

const ctx = (baseUrl: string) =>
  ({
    credentials: { id: 'c1', type: '17track', baseUrl, parameters: {}, secrets: {} },
  }) as never as ProviderCallContext;

describe('providerBaseUrlProblem', () => {
  it.each([
    'https://api.17track.net/track/v2.2',
    'http://127.0.0.1:8080',
    'https://relay.example/aftership/',
    'https://relay.example/a%23b',
  ])('takes %s', (url) => {
    expect(providerBaseUrlProblem(url)).toBeNull();
  });

  it.each([
    ['https://relay.example/admin#', /fragment/],
    ['https://relay.example/admin#/x', /fragment/],
    ['https://relay.example/admin?', /query/],
    ['https://relay.example/?x=1', /query/],
    ['https://user:pw@relay.example/', /user name or password/],
    ['https://user@relay.example/', /user name or password/],
    ['ftp://relay.example/', /not a valid URL/],
    ['relay.example/track', /not a valid URL/],
    ['', /not a valid URL/],
  ])('refuses %s', (url, problem) => {
    expect(providerBaseUrlProblem(url)).toMatch(problem);
  });
});

describe('providerUrl', () => {
  it('appends the path (and its query) to the base, trailing slashes dropped', () => {
    expect(providerUrl(ctx('https://relay.example/v2//'), '/register')).toBe(
      'https://relay.example/v2/register',
    );
    expect(providerUrl(ctx('https://relay.example'), '/trackers?page=1')).toBe(
      'https://relay.example/trackers?page=1',
    );
  });

  it('never calls a base whose # or ? would swallow the path', () => {
    for (const base of ['https://relay.example/admin/dump#', 'https://relay.example/admin?']) {
      expect(() => providerUrl(ctx(base), '/register')).toThrow(TrackingProviderError);
    }
  });
});
