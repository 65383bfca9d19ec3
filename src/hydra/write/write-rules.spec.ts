import type { ResourceMeta } from '../core/resource-meta';
import type { WriteContext } from '../core/resource-hooks';
import { WriteRules } from './write-rules';

class Workspace {}
class Shipment {}

const ctx = (target: Function, operation: 'post' | 'put' = 'post'): WriteContext =>
  ({ operation, body: {}, nested: {}, resource: { target } as ResourceMeta }) as WriteContext;

describe('WriteRules', () => {
  it('runs the rules registered for the written resource only, in order', async () => {
    const rules = new WriteRules();
    const seen: string[] = [];
    rules.register(Workspace, (entity, c) => {
      seen.push(`first ${String(entity.title)} ${c.operation}`);
      return [];
    });
    rules.register(Workspace, async () => {
      seen.push('second');
      return [{ propertyPath: 'team', message: 'limit', code: null }];
    });
    rules.register(Shipment, () => {
      seen.push('shipment');
      return [];
    });
    const violations = await rules.run({ title: 'Shop' }, ctx(Workspace));
    expect(seen).toEqual(['first Shop post', 'second']);
    expect(violations).toEqual([{ propertyPath: 'team', message: 'limit', code: null }]);
  });

  it('stops at the first rule that refuses', async () => {
    const rules = new WriteRules();
    const later = jest.fn(() => []);
    rules.register(Workspace, () => [{ propertyPath: '', message: 'no', code: null }]);
    rules.register(Workspace, later);
    expect(await rules.run({}, ctx(Workspace))).toHaveLength(1);
    expect(later).not.toHaveBeenCalled();
  });

  it('answers no violations for a resource without rules', async () => {
    expect(await new WriteRules().run({}, ctx(Shipment, 'put'))).toEqual([]);
  });
});
