import type { Principal } from '../access/principal';
import { ValidationError, Violation, ViolationCodes } from '../common/errors/api-errors';
import { isUuid } from '../hydra/core/identifiers';
import { typeError } from '../hydra/write/denormalizer';
import type { WorkspacePermission } from '../teams/team-member-store';
import { ACCESS_LEVELS } from '../workspaces/workspace-member.entity';

/**
 * `permissions: [{workspaceId, accessLevel}]` of an invitation or a batch change.
 * workspaceId is a uuid or a /workspaces IRI; accessLevel one of ACCESS_LEVELS, or null
 * (or "none") to revoke.
 */
export function readPermissions(value: unknown, path: string): WorkspacePermission[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw typeError(path, 'array', value);
  const violations: Violation[] = [];
  const out: WorkspacePermission[] = [];
  value.forEach((item: unknown, i) => {
    if (!item || typeof item !== 'object' || Array.isArray(item)) {
      throw typeError(`${path}[${i}]`, 'array', item);
    }
    const p = item as Record<string, unknown>;
    const rawId = p.workspaceId;
    if (typeof rawId !== 'string') {
      if (rawId !== undefined && rawId !== null) {
        throw typeError(`${path}[${i}].workspaceId`, 'string', rawId);
      }
      violations.push(blank(`${path}[${i}].workspaceId`));
      return;
    }
    const workspaceId = rawId.replace(/^\/workspaces\//, '');
    const level = p.accessLevel;
    if (level !== undefined && level !== null && typeof level !== 'string') {
      throw typeError(`${path}[${i}].accessLevel`, 'string', level);
    }
    const accessLevel = level === undefined || level === null || level === 'none' ? null : level;
    if (accessLevel !== null && !(ACCESS_LEVELS as readonly string[]).includes(accessLevel)) {
      violations.push({
        propertyPath: `${path}[${i}].accessLevel`,
        message: 'The value you selected is not a valid choice.',
        code: ViolationCodes.choice,
      });
      return;
    }
    if (!isUuid(workspaceId)) {
      violations.push(notFound(`${path}[${i}].workspaceId`));
      return;
    }
    out.push({ workspaceId: workspaceId.toLowerCase(), accessLevel });
  });
  if (violations.length) throw new ValidationError(violations);
  return out;
}

/**
 * Every workspace must be one the principal administers in `teamId` (or, without a team,
 * in any team): answers the team of each. Foreign or missing workspaces are 422. `teamOf`
 * has the team of each existing workspace (WorkspaceStore.teamsOf).
 */
export function checkPermissionTargets(
  teamOf: ReadonlyMap<string, string>,
  principal: Principal,
  permissions: WorkspacePermission[],
  path: string,
  teamId?: string,
): Map<string, string> {
  const teams = new Map<string, string>();
  const violations: Violation[] = [];
  permissions.forEach((p, i) => {
    const team = teamOf.get(p.workspaceId);
    const visible = team && principal.teamIds.includes(team);
    if (!visible || !principal.adminTeamIds.includes(team) || (teamId && team !== teamId)) {
      violations.push(notFound(`${path}[${i}].workspaceId`));
    } else {
      teams.set(p.workspaceId, team);
    }
  });
  if (violations.length) throw new ValidationError(violations);
  return teams;
}

function blank(propertyPath: string): Violation {
  return {
    propertyPath,
    message: 'This value should not be blank.',
    code: ViolationCodes.notBlank,
  };
}

function notFound(propertyPath: string): Violation {
  return {
    propertyPath,
    message: 'This workspace does not exist or you cannot manage its members.',
    code: ViolationCodes.invalid,
  };
}
