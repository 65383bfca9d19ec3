import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';

const run = promisify(execFile);
const ROOT = join(__dirname, '..');

/**
 * The served `/docs.json` is a contract client generators accept: Spectral's `spectral:oas`
 * ruleset (`.spectral.yaml`) finds nothing in it, not even a warning.
 */
describe('the OpenAPI description as a contract', () => {
  let app: NestExpressApplication;
  let doc: Record<string, any>;

  beforeAll(async () => {
    app = await createTestApp();
    doc = (await api(app).get('/docs.json').set('Accept', 'application/json').expect(200)).body;
  });
  afterAll(() => closeTestApp(app));

  it('passes spectral:oas with no error and no warning', async () => {
    const dir = join(ROOT, 'var', 'openapi');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'docs.json');
    writeFileSync(file, JSON.stringify(doc));
    const spectral = join(ROOT, 'node_modules', '.bin', 'spectral');
    const { stdout } = await run(
      spectral,
      ['lint', file, '--ruleset', join(ROOT, '.spectral.yaml'), '--format', 'json', '--quiet'],
      { maxBuffer: 64 * 1024 * 1024 },
    ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    const findings = (JSON.parse(stdout || '[]') as Array<Record<string, any>>).map(
      (f) => `${f.code} ${f.path.join('.')}: ${f.message}`,
    );
    expect(findings).toEqual([]);
  }, 120_000);

  it('declares every path parameter, one path per route, unique operation ids', () => {
    const ids = new Set<string>();
    const shapes = new Set<string>();
    for (const [path, item] of Object.entries(doc.paths as Record<string, any>)) {
      const shape = path.replace(/\{[^}]+\}/g, '{}');
      expect(shapes.has(shape)).toBe(false);
      shapes.add(shape);
      for (const [method, op] of Object.entries(item as Record<string, any>)) {
        expect(ids.has(op.operationId)).toBe(false);
        ids.add(op.operationId);
        for (const [, name] of path.matchAll(/\{([^}]+)\}/g)) {
          expect(op.parameters).toEqual(
            expect.arrayContaining([expect.objectContaining({ name, in: 'path', required: true })]),
          );
        }
        expect(op.description).toContain('**Access:**');
        expect(op.summary).toEqual(expect.stringMatching(/\w/));
        expect(op.description.startsWith('\n')).toBe(false);
        if (['post', 'put', 'patch'].includes(method)) expect(op.requestBody).toBeDefined();
      }
    }
    expect(doc.tags.length).toBeGreaterThan(20);
    expect(doc.servers.length).toBe(1);
    expect(doc.components.schemas).toHaveProperty('ConstraintViolationList');
  });
});
