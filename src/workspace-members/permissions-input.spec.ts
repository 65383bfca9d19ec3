import type { Principal } from '../access/principal';
import { BadRequestError, ValidationError } from '../common/errors/api-errors';
import { checkPermissionTargets, readPermissions } from './permissions-input';

const W1 = '00000000-0000-4000-8000-000000000001';
const W2 = '00000000-0000-4000-8000-000000000002';
const W3 = '00000000-0000-4000-8000-000000000003';

const admin = (admin: string[], member: string[] = []): Principal => ({
  userId: 'u',
  email: 'u@example.test',
  teamIds: [...admin, ...member],
  adminTeamIds: admin,
  workspaceIds: [],
});

const violationsOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationError) return error.violations.map((v) => v.propertyPath);
    throw error;
  }
  return [];
};

describe('readPermissions', () => {
  it('reads ids or IRIs, levels, and null or "none" as a revocation', () => {
    expect(
      readPermissions(
        [
          { workspaceId: `/workspaces/${W1.toUpperCase()}`, accessLevel: 'read' },
          { workspaceId: W2, accessLevel: 'none' },
          { workspaceId: W3 },
        ],
        'p',
      ),
    ).toEqual([
      { workspaceId: W1, accessLevel: 'read' },
      { workspaceId: W2, accessLevel: null },
      { workspaceId: W3, accessLevel: null },
    ]);
    expect(readPermissions(null, 'p')).toEqual([]);
  });

  it('answers 400 for wrong types and 422 for blank ids, unknown levels and non-uuids', () => {
    expect(() => readPermissions('x', 'p')).toThrow(BadRequestError);
    expect(() => readPermissions([{ workspaceId: 1 }], 'p')).toThrow(BadRequestError);
    expect(
      violationsOf(() =>
        readPermissions(
          [{}, { workspaceId: W1, accessLevel: 'owner' }, { workspaceId: 'nope' }],
          'p',
        ),
      ),
    ).toEqual(['p[0].workspaceId', 'p[1].accessLevel', 'p[2].workspaceId']);
  });
});

describe('checkPermissionTargets', () => {
  const teamOf = new Map([
    [W1, 'team-a'],
    [W2, 'team-b'],
  ]);
  const grants = [W1, W2, W3].map((workspaceId) => ({ workspaceId, accessLevel: 'full' }));

  it('answers the team of each workspace the principal administers', () => {
    const teams = checkPermissionTargets(
      teamOf,
      admin(['team-a', 'team-b']),
      grants.slice(0, 2),
      'p',
    );
    expect([...teams]).toEqual([
      [W1, 'team-a'],
      [W2, 'team-b'],
    ]);
  });

  it('refuses missing workspaces, teams only joined as a member, and other teams than asked', () => {
    expect(
      violationsOf(() =>
        checkPermissionTargets(teamOf, admin(['team-a'], ['team-b']), grants, 'p'),
      ),
    ).toEqual(['p[1].workspaceId', 'p[2].workspaceId']);
    expect(
      violationsOf(() =>
        checkPermissionTargets(
          teamOf,
          admin(['team-a', 'team-b']),
          grants.slice(0, 2),
          'p',
          'team-a',
        ),
      ),
    ).toEqual(['p[1].workspaceId']);
  });
});
