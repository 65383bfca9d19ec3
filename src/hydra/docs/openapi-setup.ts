import type { INestApplication } from '@nestjs/common';
import { SwaggerModule } from '@nestjs/swagger';
import type { OpenAPIObject } from '@nestjs/swagger';
import { ResourceRegistry } from '../metadata/resource-registry';
import { API_VERSION } from './api-version';
import { resourcesOpenApi } from './openapi';

/**
 * `/docs.json` (OpenAPI 3) and `/docs` (Swagger UI). Custom endpoints come
 * from @nestjs/swagger's scan of the controllers; every resource operation
 * is then described from its declaration (parameters, schemas, formats).
 */
export function setupOpenApi(app: INestApplication): void {
  let cached: OpenAPIObject | undefined;
  const build = (): OpenAPIObject => {
    if (cached) return cached;
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
    const generated = resourcesOpenApi(app.get(ResourceRegistry));
    for (const [path, ops] of Object.entries(generated.paths)) {
      scanned.paths[path] = { ...(scanned.paths[path] ?? {}), ...ops };
    }
    scanned.components = {
      ...scanned.components,
      schemas: { ...(scanned.components?.schemas ?? {}), ...generated.schemas },
    };
    scanned.security = [{ bearer: [] }];
    cached = scanned;
    return scanned;
  };
  SwaggerModule.setup('docs', app, build, {
    jsonDocumentUrl: 'docs.json',
    yamlDocumentUrl: 'docs.yaml',
    customSiteTitle: 'Shipment Tracking API',
  });
}
