import { getMetadataStorage } from 'class-validator';
import { DOCUMENTED, type DocumentedAttribute } from '../hydra/validation/documented';
import { typeError } from '../hydra/write/denormalizer';
import { PageBuilder } from './page-builder.output';

type Json = Record<string, unknown>;

/** Sizes builderViolations judges itself (422 for anything but a pixel count). */
const PIXEL_MEMBERS = new Set(['borderRadius', 'borderWidth', 'fontSize']);

const PHP_TYPES: Record<string, string> = { string: 'string', boolean: 'bool', integer: 'int' };

const isObject = (v: unknown): v is Json =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** The members a class of page-builder.output.ts declares, by name. */
function membersOf(target: Function): Array<[string, DocumentedAttribute]> {
  return getMetadataStorage()
    .getTargetValidationMetadatas(target, '', true, false)
    .filter((m) => m.name === DOCUMENTED)
    .map((m) => [m.propertyName, m.constraints[0] as DocumentedAttribute]);
}

/**
 * The stored form of a tracking page builder: every member the reference declares
 * (PageBuilder), those the body leaves out at their defaults (null, a nested object with its
 * own members, null for lists), members of another JSON type a 400 as for any attribute;
 * members it does not declare are kept as given (the page editor's own).
 */
export function builderWithDefaults(input: unknown, path = 'builder'): Json {
  return filled(PageBuilder, isObject(input) ? input : {}, path);
}

function filled(target: Function, input: Json, path: string): Json {
  const out: Json = { ...input };
  for (const [name, member] of membersOf(target)) {
    const at = `${path}.${name}`;
    const value = input[name];
    if (member.type === 'object' && member.of) {
      if (value === null && member.nullable) out[name] = null;
      else if (value === undefined || value === null) out[name] = filled(member.of(), {}, at);
      else if (isObject(value)) out[name] = filled(member.of(), value, at);
      else throw typeError(at, 'array', value);
    } else if (member.type === 'array' && member.of) {
      if (value === undefined || value === null) out[name] = null;
      else if (!Array.isArray(value)) throw typeError(at, 'array', value);
      else
        out[name] = value.map((element, i) => {
          if (!isObject(element)) throw typeError(`${at}[${i}]`, 'array', element);
          return filled(member.of!(), element, `${at}[${i}]`);
        });
    } else {
      out[name] = value ?? null;
      if (value === undefined || value === null || PIXEL_MEMBERS.has(name)) continue;
      const ok = member.type === 'integer' ? Number.isInteger(value) : typeof value === member.type;
      if (!ok) throw typeError(at, PHP_TYPES[member.type ?? 'string'] ?? 'string', value);
    }
  }
  return out;
}
