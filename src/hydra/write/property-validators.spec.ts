import type { PropertyMeta, ResourceMeta } from '../core/resource-meta';
import { PropertyValidators } from './property-validators';
import type { WriteContext } from '../core/resource-hooks';

const prop = (name: string, validatedBy?: string): PropertyMeta =>
  ({
    name,
    writable: new Set(['post', 'put']),
    options: { validatedBy },
  }) as unknown as PropertyMeta;

function ctx(body: Record<string, unknown>): WriteContext {
  return {
    operation: 'put',
    body,
    nested: {},
    resource: { properties: [prop('title'), prop('customFields', 'customFields')] } as ResourceMeta,
  } as unknown as WriteContext;
}

describe('PropertyValidators', () => {
  it('runs the named validator on properties the body sets and applies normalised values', async () => {
    const validators = new PropertyValidators();
    const seen: unknown[] = [];
    validators.register('customFields', (value, c) => {
      seen.push([value, c.property.name, c.entity.title]);
      return {
        violations: [{ propertyPath: 'customFields.size', message: 'bad', code: null }],
        value: { size: 'M' },
      };
    });
    const entity: Record<string, unknown> = { title: 't', customFields: { size: 'm' } };
    const violations = await validators.run(entity, ctx({ customFields: { size: 'm' } }));
    expect(seen).toEqual([[{ size: 'm' }, 'customFields', 't']]);
    expect(violations).toEqual([{ propertyPath: 'customFields.size', message: 'bad', code: null }]);
    expect(entity.customFields).toEqual({ size: 'M' });
  });

  it('skips properties absent from the body', async () => {
    const validators = new PropertyValidators();
    validators.register('customFields', () => {
      throw new Error('must not run');
    });
    expect(await validators.run({}, ctx({ title: 'x' }))).toEqual([]);
  });

  it('fails loudly for an unregistered or twice-registered validator', async () => {
    const validators = new PropertyValidators();
    await expect(validators.run({}, ctx({ customFields: {} }))).rejects.toThrow(
      'No property validator named customFields is registered',
    );
    validators.register('x', () => ({ violations: [] }));
    expect(() => validators.register('x', () => ({ violations: [] }))).toThrow('registered twice');
  });
});
