import {
  OutboundLookupError,
  OutboundRefusedError,
  addressAllowed,
  literalRefusal,
  resolveOutboundTarget,
} from './outbound-target';

const lookupOf =
  (...addresses: string[]) =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

describe('resolveOutboundTarget', () => {
  it('answers the first address when every one is public', async () => {
    await expect(
      resolveOutboundTarget('shop.example', {
        allowedHosts: [],
        lookup: lookupOf('8.8.8.8', '1.1.1.1'),
      }),
    ).resolves.toEqual({ address: '8.8.8.8', family: 4 });
  });

  it('refuses a host when any address is private (no mixing public and private)', async () => {
    await expect(
      resolveOutboundTarget('mixed.example', {
        allowedHosts: [],
        lookup: lookupOf('8.8.8.8', '10.0.0.5'),
      }),
    ).rejects.toBeInstanceOf(OutboundRefusedError);
  });

  it('says only "refused: not a public address", never the address a name resolves to', async () => {
    const refusal = await resolveOutboundTarget('db.internal.example', {
      allowedHosts: [],
      lookup: lookupOf('10.0.0.5'),
    }).then(
      () => null,
      (e: unknown) => e as OutboundRefusedError,
    );
    expect(refusal).toBeInstanceOf(OutboundRefusedError);
    expect(refusal?.message).toBe('refused: not a public address');
    // Kept for the operator's logs only.
    expect(refusal?.address).toBe('10.0.0.5');
    expect(literalRefusal('::a00:1', { allowedHosts: [] })?.message).toBe(
      'refused: not a public address',
    );
  });

  it('allows listed hosts and addresses', async () => {
    const policy = { allowedHosts: ['127.0.0.1'], lookup: lookupOf('127.0.0.1') };
    await expect(resolveOutboundTarget('local.test', policy)).resolves.toMatchObject({
      address: '127.0.0.1',
    });
    await expect(resolveOutboundTarget('localhost', policy)).resolves.toMatchObject({
      address: '127.0.0.1',
    });
  });

  it('reports DNS failures as lookup errors', async () => {
    await expect(
      resolveOutboundTarget('nx.example', {
        allowedHosts: [],
        lookup: () => Promise.reject(new Error('ENOTFOUND')),
      }),
    ).rejects.toBeInstanceOf(OutboundLookupError);
  });
});

describe('literalRefusal / addressAllowed', () => {
  it('refuses private literals and local names before any lookup', () => {
    expect(literalRefusal('[::1]', { allowedHosts: [] })).toBeInstanceOf(OutboundRefusedError);
    expect(literalRefusal('app.localhost', { allowedHosts: [] })).toBeInstanceOf(
      OutboundRefusedError,
    );
    expect(literalRefusal('shop.example', { allowedHosts: [] })).toBeNull();
  });

  it('judges addresses found elsewhere', () => {
    expect(addressAllowed('93.184.216.34', { allowedHosts: [] })).toBe(true);
    expect(addressAllowed('169.254.169.254', { allowedHosts: [] })).toBe(false);
    expect(addressAllowed('127.0.0.1', { allowedHosts: ['127.0.0.1'] })).toBe(true);
  });
});
