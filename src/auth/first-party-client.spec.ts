import { firstPartyRedirectUris, isFirstPartyRedirectUri } from './first-party-client';

describe('first-party redirect URIs', () => {
  it('are /admin/ on the request origin and on PUBLIC_URL', () => {
    expect(firstPartyRedirectUris('http://127.0.0.1:8080')).toEqual([
      'http://127.0.0.1:8080/admin/',
    ]);
    expect(firstPartyRedirectUris('http://api.internal', 'https://track.example.com/')).toEqual([
      'http://api.internal/admin/',
      'https://track.example.com/admin/',
    ]);
    expect(firstPartyRedirectUris('https://a.example', 'https://a.example')).toEqual([
      'https://a.example/admin/',
    ]);
  });

  it('ignore an origin that is not http(s) (HTTP/1.0 without Host)', () => {
    expect(firstPartyRedirectUris('http://')).toEqual([]);
  });

  it('pass the library check only as <origin>/admin/ exactly', () => {
    expect(isFirstPartyRedirectUri('http://localhost:8080/admin/')).toBe(true);
    expect(isFirstPartyRedirectUri('https://track.example.com/admin/')).toBe(true);
    for (const uri of [
      'http://localhost:8080/admin',
      'http://localhost:8080/admin/?x=1',
      'http://localhost:8080/admin/#a',
      'http://user:pw@localhost/admin/',
      'http://localhost/admin/../admin/',
      'javascript://x/admin/',
      'com.example.app:/admin/',
      '/admin/',
      'not a uri',
    ])
      expect([uri, isFirstPartyRedirectUri(uri)]).toEqual([uri, false]);
  });
});
