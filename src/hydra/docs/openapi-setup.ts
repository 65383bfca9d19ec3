import type { INestApplication } from '@nestjs/common';
import { SwaggerModule } from '@nestjs/swagger';
import type { OpenAPIObject } from '@nestjs/swagger';
import { ResourceRegistry } from '../metadata/resource-registry';
import { API_VERSION } from './api-version';
import { resourcesOpenApi } from './openapi';
import { finishContract } from './openapi-contract';
import { AppConfig } from '../../config/app-config';
import { publicBaseUrl } from '../../config/public-base-url';

/**
 * `/docs.json` (OpenAPI 3) and `/docs` (Swagger UI). Custom endpoints come
 * from @nestjs/swagger's scan of the controllers; every resource operation
 * is then described from its declaration (parameters, schemas, formats).
 */
const documents = new WeakMap<INestApplication, OpenAPIObject>();

/** The OpenAPI description of the application, built once from its controllers. */
export function openApiDocument(app: INestApplication): OpenAPIObject {
  let document = documents.get(app);
  if (!document) documents.set(app, (document = buildDocument(app)));
  return document;
}

export function setupOpenApi(app: INestApplication): void {
  SwaggerModule.setup('docs', app, () => openApiDocument(app), {
    jsonDocumentUrl: 'docs.json',
    yamlDocumentUrl: 'docs.yaml',
    customSiteTitle: 'Shipment Tracking API',
  });
}

function buildDocument(app: INestApplication): OpenAPIObject {
  const scanned = SwaggerModule.createDocument(app, {
    openapi: '3.0.3',
    info: {
      title: 'Shipment Tracking API',
      description:
        'Shipments, carriers, tracking status, orders and notifications. JSON-LD/Hydra, JSON, CSV.',
      version: API_VERSION,
    },
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'Access token from /oauth/v2/token',
        },
      },
    },
  });
  for (const item of Object.values(scanned.paths))
    for (const op of Object.values(item as Record<string, Record<string, unknown>>))
      if (op && typeof op === 'object') op['x-scanned'] = true;
  const registry = app.get(ResourceRegistry);
  const generated = resourcesOpenApi(registry);
  for (const [path, ops] of Object.entries(generated.paths)) {
    scanned.paths[path] = { ...(scanned.paths[path] ?? {}), ...ops };
  }
  scanned.components = {
    ...scanned.components,
    schemas: { ...(scanned.components?.schemas ?? {}), ...generated.schemas },
  };
  Object.assign(scanned.paths, DOCUMENTATION_PATHS);
  scanned.security = [{ bearer: [] }];
  return finishContract(scanned, registry, publicBaseUrl(app.get(AppConfig)));
}

/** The documentation's own routes (SwaggerModule serves them, whatever Accept asks). */
function documentationRoute(summary: string, type: string, schema: Record<string, unknown>) {
  return {
    get: {
      tags: ['Documentation'],
      summary,
      description: `${summary} It answers ${type} whatever the Accept header asks.`,
      operationId: `get${type
        .split('/')[1]
        .replace(/[^a-z]/g, '')
        .replace(/^./, (c) => c.toUpperCase())}Documentation`,
      'x-access': 'public',
      responses: { 200: { description: summary, content: { [type]: { schema } } } },
    },
  };
}

const DOCUMENTATION_PATHS = {
  '/docs': documentationRoute('The interactive documentation (Swagger UI).', 'text/html', {
    type: 'string',
  }),
  '/docs.json': documentationRoute('This OpenAPI 3 description, in JSON.', 'application/json', {
    type: 'object',
    required: ['openapi', 'info', 'paths'],
    properties: {
      openapi: { type: 'string' },
      info: { type: 'object', additionalProperties: true },
      paths: { type: 'object', additionalProperties: true },
    },
  }),
  '/docs.yaml': documentationRoute('This OpenAPI 3 description, in YAML.', 'text/yaml', {
    type: 'string',
  }),
};
