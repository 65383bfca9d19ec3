import 'reflect-metadata';
import { ACCESS } from '../../access/access.decorator';
import { ApiResource } from '../metadata/decorators';
import { ResourceController } from './resource-controller';

@ApiResource({ path: '/open_things', tenancy: 'public', operations: ['list', 'get'] })
class OpenThing {}

@ApiResource({
  path: '/shared_things',
  tenancy: 'public',
  requireToken: true,
  operations: ['list', 'get'],
})
class SharedThing {}

@ApiResource({ path: '/owned_things', tenancy: { workspace: 'workspace' } })
class OwnedThing {}

describe('ResourceController access marking', () => {
  const isPublic = (target: Function) =>
    Reflect.getMetadata(ACCESS, ResourceController(target).prototype.list)?.level === 'public';

  it('marks public resources as reachable without a token', () => {
    expect(isPublic(OpenThing)).toBe(true);
  });

  it('keeps the token requirement of a shared catalogue (requireToken) and of owned resources', () => {
    expect(isPublic(SharedThing)).toBe(false);
    expect(isPublic(OwnedThing)).toBe(false);
  });
});
