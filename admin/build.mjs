#!/usr/bin/env node
// Builds the merchant console into admin/dist when its inputs changed (`npm run admin:build`,
// and `npm start` through prestart with --optional). Installs admin/node_modules with
// `npm ci` the first time and whenever admin/package-lock.json changed. The hash of the
// inputs is kept beside the bundle (dist/.inputs-hash): an unchanged console is never rebuilt.
//
//   --optional  a failure (offline, no npm registry) is a warning: the API starts anyway and
//               /admin/ says how to build the console.
//   --force     build even when the hash matches.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const optional = process.argv.includes('--optional');
const force = process.argv.includes('--force');
const INPUTS = [
  'package.json',
  'package-lock.json',
  'index.html',
  'vite.config.ts',
  'build.mjs',
  'tsconfig.json',
  'src',
];
const HASH_FILE = join(here, 'dist', '.inputs-hash');
const INSTALL_FILE = join(here, 'node_modules', '.lock-hash');

function files(path) {
  const full = join(here, path);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [path];
  return readdirSync(full)
    .sort()
    .flatMap((name) => files(join(path, name)));
}

function hashOf(paths) {
  const hash = createHash('sha256');
  for (const path of paths) {
    hash.update(`${relative(here, join(here, path))}\0`);
    hash.update(readFileSync(join(here, path)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

function read(path) {
  return existsSync(path) ? readFileSync(path, 'utf8').trim() : null;
}

function run(args, env = process.env) {
  const started = Date.now();
  const result = spawnSync('npm', args, {
    cwd: here,
    env,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (result.status !== 0) throw new Error(`npm ${args.join(' ')} failed (exit ${result.status})`);
  return ((Date.now() - started) / 1000).toFixed(1);
}

function main() {
  const inputs = hashOf(INPUTS.flatMap(files));
  if (!force && read(HASH_FILE) === inputs && existsSync(join(here, 'dist', 'index.html'))) {
    console.log('admin console: up to date (admin/dist)');
    return;
  }
  const lock = hashOf(['package-lock.json']);
  if (read(INSTALL_FILE) !== lock) {
    console.log('admin console: installing its packages (npm ci --prefix admin)…');
    const seconds = run(['ci', '--include=dev', '--no-audit', '--no-fund']);
    writeFileSync(INSTALL_FILE, `${lock}\n`);
    console.log(`admin console: installed in ${seconds}s`);
  }
  console.log('admin console: building admin/dist…');
  // Vite keeps a NODE_ENV it finds (jest sets `test`): the bundle would carry React's
  // development build, larger, slower and warning in the console. (Not for `npm ci`, which
  // would leave out the devDependencies the build needs.)
  const seconds = run(['run', 'build'], { ...process.env, NODE_ENV: 'production' });
  writeFileSync(HASH_FILE, `${inputs}\n`);
  console.log(`admin console: built in ${seconds}s`);
}

try {
  main();
} catch (error) {
  if (!optional) throw error;
  console.warn(
    `admin console: not built (${error.message}); the API starts without it. ` +
      'Run `npm run admin:build` to build it (needs the npm registry once).',
  );
}
