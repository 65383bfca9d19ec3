import { AppModule } from '../../src/app.module';
import type { ActionDeclaration } from '../../src/hydra/actions/action-declaration';
import { declaredActions } from '../../src/hydra/actions/action-registry';
import { outputSchema, classSchema } from '../../src/hydra/actions/action-schemas';
import { OPEN_MAPS, openMapsInUse } from '../../src/hydra/actions/open-maps';
import { declaredResources } from '../../src/hydra/metadata/declared-resources';
import { getPropertyOptions, getResourceOptions } from '../../src/hydra/metadata/decorators';
import { getMetadataArgsStorage } from 'typeorm';

/**
 * Rules over every `@Action` and resource of the application (importing AppModule declares
 * them all, the resources' generated operations included): short descriptions, outputs
 * declared as classes, open maps only where OPEN_MAPS names them.
 */

/** Sentences of a description, code spans and abbreviations aside. */
export function sentences(text: string): number {
  const plain = text.replace(/`[^`]*`/g, 'code').replace(/\b(e\.g|i\.e|etc|vs)\./g, '$1');
  return plain.split(/[.!?](?:\s+|$)/).filter((s) => s.trim() !== '').length;
}

const name = (declaration: ActionDeclaration) => `${declaration.method} ${declaration.path}`;

describe('declared actions', () => {
  const actions = declaredActions();

  it('are all loaded', () => {
    expect(AppModule).toBeDefined();
    expect(actions.length).toBeGreaterThan(100);
  });

  it('describe themselves in at most two sentences (details go in the module README)', () => {
    const long = actions
      .map(({ declaration }) => declaration)
      .filter((d) => d.description !== undefined && sentences(d.description) > 2)
      .map((d) => `${name(d)}: ${sentences(d.description!)} sentences`);
    expect(long).toEqual([]);
  });

  it('declare their JSON answers as classes', () => {
    const open = actions
      .map(({ declaration }) => declaration)
      .filter((d) => {
        const output = d.output;
        if (output === 'none') return false;
        const json = 'json' in output ? output.json : 'oneOf' in output ? output.oneOf.json : null;
        if (json === null || json === undefined) return false;
        return !(
          typeof json === 'function' ||
          (Array.isArray(json) && typeof json[0] === 'function')
        );
      })
      .map(name);
    expect(open).toEqual([]);
    for (const { declaration } of actions) expect(() => outputSchema(declaration)).not.toThrow();
  });

  it('leave no stale entry in OPEN_MAPS', () => {
    // Resource properties are documented when the OpenAPI is built: count theirs here.
    const { open, classes } = resourceObjects();
    for (const of of classes) classSchema(of);
    const unused = Object.keys(OPEN_MAPS).filter(
      (key) => !openMapsInUse().has(key) && !open.includes(key),
    );
    expect(unused).toEqual([]);
  });
});

describe('declared resources', () => {
  it('document every object property with a class, or name it in OPEN_MAPS', () => {
    expect(resourceObjects().open.filter((key) => !(key in OPEN_MAPS))).toEqual([]);
  });
});

/**
 * The object-valued properties of the declared resources (a json column, or `type: 'object'`):
 * those without a documenting class (`ApiProperty({ of })`), as `Resource.property`, and the
 * classes of the others.
 */
function resourceObjects(): { open: string[]; classes: Function[] } {
  const columns = getMetadataArgsStorage().columns;
  const open: string[] = [];
  const classes: Function[] = [];
  for (const target of declaredResources) {
    const shortName = getResourceOptions(target)?.shortName ?? target.name;
    for (const [property, options] of getPropertyOptions(target)) {
      const column = columns.find(
        (c) =>
          c.propertyName === property &&
          typeof c.target === 'function' &&
          (c.target === target || target.prototype instanceof c.target),
      );
      const json = ['json', 'jsonb'].includes(String(column?.options.type ?? ''));
      if ((options.type ?? (json ? 'object' : undefined)) !== 'object') continue;
      if (options.of) classes.push(options.of());
      else open.push(`${shortName}.${property}`);
    }
  }
  return { open, classes };
}

describe('sentences', () => {
  it('count full stops that end a sentence', () => {
    expect(sentences('One. Two.')).toBe(2);
    expect(sentences('Answers `{a. b}` (e.g. this one). Then 1.5 more')).toBe(2);
    expect(sentences('Public! Three? Four.')).toBe(3);
  });
});
