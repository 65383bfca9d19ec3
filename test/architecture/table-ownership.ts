import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import * as ts from 'typescript';

/**
 * Which module may write SQL naming a table: the module whose folder declares the table's
 * entity (`@Entity('shipment')` in `src/shipments/`), or the owner listed in
 * `TABLE_OWNERS` for tables without an entity. SQL is found in string and template
 * literals: a table after FROM, JOIN, INTO, UPDATE, DELETE FROM, TRUNCATE or REFERENCES
 * (upper-case keywords, as every statement here is written, so prose in messages is not
 * taken for SQL), and TypeORM calls that name an entity class of another module
 * (`em.find(User, ...)`, `getRepository(User)`, `.update(User, ...)`).
 */
export interface OwnershipConfig {
  /** Tables with no entity class, by owning module (the folder under src/). */
  tableOwners: Readonly<Record<string, string>>;
  /** Files (relative to the root, `/` separators) allowed to name any table, with why. */
  exceptions: Readonly<Record<string, string>>;
}

export interface ForeignReference {
  file: string;
  line: number;
  module: string;
  table: string;
  owner: string;
  text: string;
}

export interface OwnershipReport {
  owners: Map<string, string>;
  references: ForeignReference[];
}

const SQL_TABLE =
  /\b(?:FROM|JOIN|INTO|UPDATE|TRUNCATE|REFERENCES)\s+(?:ONLY\s+)?(?:"?public"?\.)?("?)([a-z_][a-z0-9_]*)\1(?![a-z0-9_(.])/g;
const ORM_CALL =
  /^(?:getRepository|find|findOne|findOneBy|findBy|findAndCount|count|countBy|exists|existsBy|update|delete|insert|upsert|increment|decrement|softDelete|restore|createQueryBuilder)$/;

/** The module of a source file: its first folder under `src/`. */
export function moduleOf(file: string): string | null {
  const parts = file.split(/[\\/]/);
  const i = parts.indexOf('src');
  return i >= 0 && parts.length > i + 2 ? parts[i + 1] : null;
}

export function listSources(root: string, dir = 'src'): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(join(root, d), { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(path);
    }
  };
  walk(dir);
  return out.map((f) => f.split(sep).join('/')).sort();
}

/** Entity classes and tables declared in a file: `@Entity('name') class X`. */
function entitiesOf(source: ts.SourceFile): { className: string; table: string }[] {
  const found: { className: string; table: string }[] = [];
  source.forEachChild(function visit(node): void {
    if (ts.isClassDeclaration(node) && node.name) {
      for (const decorator of ts.getDecorators(node) ?? []) {
        const call = decorator.expression;
        if (
          ts.isCallExpression(call) &&
          ts.isIdentifier(call.expression) &&
          call.expression.text === 'Entity' &&
          call.arguments[0] &&
          ts.isStringLiteral(call.arguments[0])
        )
          found.push({ className: node.name.text, table: call.arguments[0].text });
      }
    }
  });
  return found;
}

/** The literal text pieces of a file, with their lines, in source order. */
function literalsOf(source: ts.SourceFile): { text: string; line: number }[] {
  const out: { text: string; line: number }[] = [];
  const lineOf = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))
      out.push({ text: node.text, line: lineOf(node) });
    else if (ts.isTemplateExpression(node)) {
      // Pieces joined with a placeholder, so `FROM ${table}` names no table.
      const text = [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' ${} ');
      out.push({ text, line: lineOf(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

function ormCallsOf(source: ts.SourceFile): { className: string; line: number; text: string }[] {
  const out: { className: string; line: number; text: string }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const name = ts.isPropertyAccessExpression(callee)
        ? callee.name.text
        : ts.isIdentifier(callee)
          ? callee.text
          : '';
      const first = node.arguments[0];
      if (ORM_CALL.test(name) && first && ts.isIdentifier(first) && /^[A-Z]/.test(first.text))
        out.push({
          className: first.text,
          line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1,
          text: node.getText(source).split('\n')[0].slice(0, 120),
        });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/**
 * Every reference from a module's code to a table another module owns. `files` are paths
 * relative to `root` (`src/...`); `read` gives a file's text (the file system by default).
 */
export function analyseOwnership(
  root: string,
  files: readonly string[],
  config: OwnershipConfig,
  read: (file: string) => string = (f) => readFileSync(join(root, f), 'utf8'),
): OwnershipReport {
  const sources = files.map((file) => ({
    file,
    source: ts.createSourceFile(file, read(file), ts.ScriptTarget.ES2022, true),
  }));
  const owners = new Map<string, string>(Object.entries(config.tableOwners));
  const classOwners = new Map<string, { table: string; owner: string }>();
  for (const { file, source } of sources) {
    const module = moduleOf(file);
    if (!module || /\.spec\.ts$/.test(file)) continue;
    for (const { className, table } of entitiesOf(source)) {
      owners.set(table, module);
      classOwners.set(className, { table, owner: module });
    }
  }
  const references: ForeignReference[] = [];
  for (const { file, source } of sources) {
    const module = moduleOf(file);
    if (!module || config.exceptions[file] !== undefined || /\.spec\.ts$/.test(file)) continue;
    for (const { text, line } of literalsOf(source)) {
      for (const match of text.matchAll(SQL_TABLE)) {
        const table = match[2];
        const owner = owners.get(table);
        if (owner && owner !== module) {
          const at = line + text.slice(0, match.index).split('\n').length - 1;
          references.push({ file, line: at, module, table, owner, text: match[0] });
        }
      }
    }
    for (const call of ormCallsOf(source)) {
      const entity = classOwners.get(call.className);
      if (entity && entity.owner !== module)
        references.push({ file, line: call.line, module, ...entity, text: call.text });
    }
  }
  return { owners, references };
}
