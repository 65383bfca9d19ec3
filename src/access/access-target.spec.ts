import { NotFoundError } from '../common/errors/api-errors';
import { fromInput, visibleFromInput, type LocateContext } from './access-target';
import type { Principal } from './principal';

class Workspace {}

const context = (input: Record<string, unknown>, visible: string[]): LocateContext => ({
  input,
  params: {},
  principal: { userId: 'u' } as Principal,
  targets: {
    reference: (_resource, reference) => {
      if (reference === 'boom') return Promise.reject(new Error('database down'));
      return visible.includes(reference)
        ? Promise.resolve(`id-of-${reference}`)
        : Promise.reject(new NotFoundError());
    },
    ownersOf: () => Promise.resolve([]),
  },
});

describe('input locators', () => {
  it('fromInput resolves the first given attribute and 404s an invisible one', async () => {
    const locate = fromInput(Workspace, 'workspaceId', 'workspace');
    await expect(locate(context({ workspace: ' w1 ' }, ['w1']))).resolves.toBe('id-of-w1');
    await expect(locate(context({ workspaceId: '', workspace: 'w1' }, ['w1']))).resolves.toBe(
      'id-of-w1',
    );
    expect(await locate(context({}, []))).toBeUndefined();
    await expect(locate(context({ workspace: 'w2' }, ['w1']))).rejects.toThrow(NotFoundError);
  });

  it('visibleFromInput leaves an invisible reference to the handler, other errors pass', async () => {
    const locate = visibleFromInput(Workspace, 'workspace');
    await expect(locate(context({ workspace: 'w1' }, ['w1']))).resolves.toBe('id-of-w1');
    await expect(locate(context({ workspace: 'w2' }, ['w1']))).resolves.toBeUndefined();
    await expect(locate(context({ workspace: 'boom' }, []))).rejects.toThrow('database down');
  });
});
