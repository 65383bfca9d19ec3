import { TEMPLATE_VARIABLES, type TemplateValues, type TemplateVariable } from './email-template';

/**
 * The `condition` of an e-mail notification: clauses joined by `and`, each
 * `<variable> == <value>`, `<variable> != <value>`, `<variable> in <v1>, <v2>` or
 * `<variable> not in <v1>, <v2>`, over the template variables (e.g.
 * `previousStatus != delivered and destinationCountry in US, CA`). Values may be quoted;
 * comparisons are exact. An empty condition always holds.
 */
interface Clause {
  variable: TemplateVariable;
  op: '==' | '!=' | 'in' | 'not in';
  values: string[];
}

const CLAUSE = /^\s*([A-Za-z0-9_]+)\s*(==|!=|\bnot\s+in\b|\bin\b)\s*(.+?)\s*$/i;
const KNOWN = new Set<string>(TEMPLATE_VARIABLES);

export function parseCondition(condition: string | null | undefined): Clause[] | string {
  if (!condition || !condition.trim()) return [];
  const clauses: Clause[] = [];
  for (const part of condition.split(/\s+and\s+/i)) {
    const m = CLAUSE.exec(part);
    if (!m)
      return `Cannot read "${part.trim()}": expected <variable> ==, !=, in or not in <value>.`;
    if (!KNOWN.has(m[1])) return `Unknown variable "${m[1]}".`;
    const op = m[2].toLowerCase().replace(/\s+/g, ' ') as Clause['op'];
    const values = (op === 'in' || op === 'not in' ? m[3].split(',') : [m[3]])
      .map((v) => v.trim().replace(/^(['"])(.*)\1$/, '$2'))
      .filter((v) => v !== '');
    if (values.length === 0) return `Missing value in "${part.trim()}".`;
    clauses.push({ variable: m[1] as TemplateVariable, op, values });
  }
  return clauses;
}

/** Whether the condition holds for these values; an unreadable condition never holds. */
export function conditionHolds(
  condition: string | null | undefined,
  values: TemplateValues,
): boolean {
  const clauses = parseCondition(condition);
  if (typeof clauses === 'string') return false;
  return clauses.every((c) => {
    const value = values[c.variable] ?? '';
    const member = c.values.includes(value);
    return c.op === '==' || c.op === 'in' ? member : !member;
  });
}
