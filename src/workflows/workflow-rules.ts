import { isEmail } from 'class-validator';
import { type Violation, ViolationCodes } from '../common/errors/api-errors';
import type { Workflow } from './workflow.entity';
import { MAX_WEBHOOK_CONCURRENCY, type WorkflowTypeSpec, workflowType } from './workflow-types';

export const MAX_NOTIFICATION_EMAILS = 20;
/** How deep `integration` objects may nest in one request. */
export const MAX_NESTING = 3;

/** Credentials as the rules look at them (CredentialsService.open). */
export interface WorkflowCredentials {
  teamId: string;
  type: string;
  parameters: Record<string, unknown>;
  secrets: Record<string, string>;
}

/** Says why a webhook target may not be called (WebhookSender.staticProblem), or null. */
export type TargetProblem = (url: string) => string | null;

/**
 * Before validation: POST defaults, blank texts as null, and the read-only facts of the type
 * (tags, integrationType, passive, remote, firstTimeSetupRequired).
 */
export function applyWriteDefaults(workflow: Workflow, operation: string): void {
  if (operation === 'post') {
    workflow.enabled ??= true;
    workflow.notificationEmails ??= [];
    workflow.firstTimeSetupPassed ??= false;
  }
  workflow.url = blank(workflow.url);
  workflow.username = blank(workflow.username);
  workflow.password = blank(workflow.password);
  workflow.field = blank(workflow.field);
  workflow.concurrency ??= '1';
  const spec = workflowType(workflow.type);
  if (spec) {
    workflow.tags = [...spec.tags];
    workflow.integrationType = spec.integrationType;
    workflow.passive = spec.passive;
    workflow.remote = spec.remote;
    workflow.firstTimeSetupRequired = spec.requiresSetup && !workflow.firstTimeSetupPassed;
  }
}

/**
 * An incoming integration created nested in another workflow runs nothing here, so it needs
 * no period: a store plugin sends its webhook with `integration: {type:
 * 'integration-woocommerce', ...}` and none, which the reference takes. It gets `immediately`,
 * what the plugins give one of their own. Outgoing ones (webhooks) still need theirs.
 */
export function applyNestedDefaults(workflow: Workflow): void {
  if (workflow.period) return;
  if (workflowType(workflow.type)?.tags.includes('incoming')) workflow.period = 'immediately';
}

/**
 * A workflow its type's executor runs here (a store with credentials of its type) is neither
 * passive nor remote; one it does not run keeps the type's facts (applyWriteDefaults).
 */
export function applyExecution(workflow: Workflow, runsHere: boolean): void {
  if (!runsHere) return;
  workflow.passive = false;
  workflow.remote = false;
}

/** At most MAX_NOTIFICATION_EMAILS addresses, each a valid e-mail address. */
export function notificationEmailViolations(emails: readonly string[]): Violation[] {
  const out: Violation[] = [];
  if (emails.length > MAX_NOTIFICATION_EMAILS)
    out.push(
      invalid(
        'notificationEmails',
        `This collection should contain ${MAX_NOTIFICATION_EMAILS} elements or less.`,
      ),
    );
  emails.forEach((email, i) => {
    if (!isEmail(email))
      out.push({
        propertyPath: `notificationEmails[${i}]`,
        message: 'This value is not a valid email address.',
        code: ViolationCodes.email,
      });
  });
  return out;
}

/** Credentials of the workspace's team (`teamId`), of a type the workflow's type takes. */
export function credentialsViolations(
  type: string,
  spec: WorkflowTypeSpec,
  credentials: Pick<WorkflowCredentials, 'teamId' | 'type'>,
  teamId: string | null,
): Violation[] {
  if (credentials.teamId !== teamId)
    return [invalid('credentials', 'The credentials must belong to the team of the workspace.')];
  if (spec.credentialTypes.includes(credentials.type)) return [];
  return [
    invalid(
      'credentials',
      spec.credentialTypes.length
        ? `A ${type} workflow takes credentials of type ${spec.credentialTypes.join(', ')}.`
        : `A ${type} workflow takes no credentials.`,
    ),
  ];
}

/**
 * A webhook workflow: in the reference's form (`url` set), a concurrency of 1 to
 * MAX_WEBHOOK_CONCURRENCY, a public http(s) url and the credentials its authType needs;
 * enabled without a url, webhook credentials with a public `url` and a `signingSecret`.
 */
export function webhookViolations(
  workflow: Workflow,
  credentials: WorkflowCredentials | null,
  problemOf: TargetProblem,
): Violation[] {
  const out: Violation[] = [];
  const concurrency = Number(workflow.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_WEBHOOK_CONCURRENCY)
    out.push(
      invalid(
        'concurrency',
        `This value should be a whole number between 1 and ${MAX_WEBHOOK_CONCURRENCY}.`,
      ),
    );
  if (workflow.url !== null) {
    const problem = problemOf(workflow.url);
    if (problem) out.push(invalid('url', problem));
  }
  if (workflow.authType === 'basic' && (workflow.username === null || workflow.password === null))
    out.push(invalid('username', 'Basic authentication needs a username and a password.'));
  if (workflow.authType === 'bearer' && workflow.password === null)
    out.push(invalid('password', 'Bearer authentication needs the token as password.'));
  if (workflow.enabled !== false && workflow.url === null) {
    const url = credentials?.parameters.url;
    if (!credentials || typeof url !== 'string' || !credentials.secrets.signingSecret) {
      out.push(
        invalid(
          'credentials',
          'An enabled webhook workflow needs a url, or webhook credentials with parameters.url and secrets.signingSecret.',
        ),
      );
    } else {
      const problem = problemOf(url);
      if (problem) out.push(invalid('credentials', problem));
    }
  }
  return out;
}

/**
 * `integration` is a workflow of the same workspace (`integrationWorkspace` is its
 * workspace, null when missing), and following integrations from it never comes back.
 */
export function integrationViolations(
  workspaceId: string,
  integrationWorkspace: string | null,
  leadsBack: boolean,
): Violation[] {
  if (integrationWorkspace !== workspaceId)
    return [invalid('integration', 'The integration must be a workflow of the same workspace.')];
  return leadsBack ? [invalid('integration', 'A workflow cannot be its own integration.')] : [];
}

function invalid(propertyPath: string, message: string): Violation {
  return { propertyPath, message, code: ViolationCodes.invalid };
}

function blank(value: string | null | undefined): string | null {
  return value === undefined || value === null || value.trim() === '' ? null : value;
}
