import { deferredRefreshOf, deferringRefresh } from './deferred-refresh';

describe('deferringRefresh', () => {
  it('hands the work a runner carrying the set, and answers it', async () => {
    const em = { name: 'em' };
    const dirty = await deferringRefresh(em, async (deferring) => {
      expect(deferring.name).toBe('em');
      deferredRefreshOf(deferring)!.add('a');
      deferredRefreshOf(Object.create(deferring) as object)!.add('b');
    });
    expect([...dirty]).toEqual(['a', 'b']);
    expect(deferredRefreshOf(em)).toBeUndefined();
  });

  it('gives nested work a set of its own', async () => {
    const outer = await deferringRefresh({}, async (deferring) => {
      const inner = await deferringRefresh(deferring, async (nested) => {
        deferredRefreshOf(nested)!.add('inner');
      });
      expect([...inner]).toEqual(['inner']);
    });
    expect(outer.size).toBe(0);
  });
});
