import { ARCHITECTURE } from './architecture.config';
import { analyseOwnership, listSources } from './table-ownership';

/**
 * `npm run lint`'s table-ownership check: SQL (and TypeORM calls) naming a table that another
 * module owns fails the lint. `--summary` prints counts per module and table instead.
 */
function main(): void {
  const root = process.cwd();
  const { references } = analyseOwnership(root, listSources(root), ARCHITECTURE);
  if (process.argv.includes('--summary')) {
    const counts = new Map<string, number>();
    for (const r of references) {
      const key = `${r.module} -> ${r.table} (${r.owner})`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    for (const [key, n] of [...counts].sort((a, b) => b[1] - a[1])) console.log(`${n}\t${key}`);
  }
  for (const r of references)
    if (!process.argv.includes('--summary'))
      console.error(
        `${r.file}:${r.line}: "${r.text}" names ${r.table}, owned by src/${r.owner}: call its store or service`,
      );
  console.log(`table ownership: ${references.length} reference(s) to another module's table`);
  if (references.length > 0) process.exitCode = 1;
}

main();
