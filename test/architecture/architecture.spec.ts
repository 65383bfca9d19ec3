import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { analyseOwnership } from './table-ownership';

const ROOT = resolve(__dirname, '../..');

/** A scratch tree of files, as `npm run lint` would see them in a branch. */
function scratch(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'architecture-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe('table ownership', () => {
  const files: Record<string, string> = {
    'src/parcels/parcel.entity.ts': "@Entity('parcel') export class Parcel {}",
    'src/parcels/parcel-store.ts': 'const sql = `SELECT id FROM parcel WHERE id = $1`;',
    'src/labels/label.entity.ts': "@Entity('label') export class Label {}",
  };
  const analyse = (extra: Record<string, string>) => {
    const all = { ...files, ...extra };
    return analyseOwnership(
      '',
      Object.keys(all),
      { tableOwners: {}, exceptions: {} },
      (f) => all[f],
    ).references;
  };

  it("passes a module's SQL on its own tables", () => {
    expect(analyse({})).toEqual([]);
  });

  it("fails on SQL naming another module's table, by owner and line", () => {
    const refs = analyse({
      'src/labels/label-store.ts':
        '\nconst a = \'UPDATE parcel SET x = 1\';\nconst b = `DELETE FROM "parcel"`;',
    });
    expect(refs.map((r) => [r.file, r.line, r.table, r.owner])).toEqual([
      ['src/labels/label-store.ts', 2, 'parcel', 'parcels'],
      ['src/labels/label-store.ts', 3, 'parcel', 'parcels'],
    ]);
  });

  it('fails on a TypeORM call with another module’s entity', () => {
    const refs = analyse({ 'src/labels/labels.service.ts': 'em.findOne(Parcel, { where: {} });' });
    expect(refs).toMatchObject([{ table: 'parcel', owner: 'parcels' }]);
  });

  it('leaves prose, interpolated names and comments alone', () => {
    const refs = analyse({
      'src/labels/labels.service.ts':
        "// SELECT * FROM parcel\nconst m = 'removed from parcel';\nconst q = `SELECT 1 FROM ${t}`;",
    });
    expect(refs).toEqual([]);
  });
});

describe('layering (dependency-cruiser)', () => {
  const cruise = (files: Record<string, string>) => {
    const dir = scratch(files);
    try {
      execFileSync(
        join(ROOT, 'node_modules/.bin/depcruise'),
        ['src', '--config', join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'err'],
        { cwd: dir, encoding: 'utf8', stdio: 'pipe' },
      );
      return '';
    } catch (error) {
      return String((error as { stdout?: string }).stdout);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it('passes the Hydra layer importing the platform', () => {
    expect(
      cruise({
        'src/hydra/write/writer.ts':
          "import { q } from '../../database/query';\nexport const w = q;",
        'src/database/query.ts': 'export const q = 1;',
      }),
    ).toBe('');
  });

  it('fails when the Hydra layer imports a feature module', () => {
    const out = cruise({
      'src/hydra/write/writer.ts': "import { o } from '../../events/outbox';\nexport const w = o;",
      'src/events/outbox.ts': 'export const o = 1;',
    });
    expect(out).toContain('hydra-imports-only-the-platform');
  });

  it('fails on a cycle between folders of the Hydra layer', () => {
    const out = cruise({
      'src/hydra/filters/filter.ts': "import { m } from '../metadata/meta';\nexport const f = m;",
      'src/hydra/metadata/meta.ts': "import { g } from '../filters/other';\nexport const m = g;",
      'src/hydra/filters/other.ts': 'export const g = 1;',
    });
    expect(out).toContain('no-platform-folder-cycles');
  });
});
