/**
 * The floor of each HTTP stack the design allows, with no work behind it: `GET /items/:id`
 * answers the same constant JSON-LD body. FLOOR_STACK picks the stack:
 * - `node`: node:http alone;
 * - `express`: Express 5 alone (ETag off, as the API);
 * - `nest-express`: Nest 11 on Express, configured as the API is (no body parser, no ETag, no
 *   x-powered-by), with one global guard and one global interceptor, as the API has;
 * - `nest-fastify`: the same Nest application on Fastify.
 * Prints `listening <port>` (bench/lib/bench-setup.ts `startScript`).
 */
import 'reflect-metadata';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CallHandler,
  CanActivate,
  Controller,
  ExecutionContext,
  Get,
  Injectable,
  Module,
  NestInterceptor,
  Param,
} from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR, NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import express from 'express';
import { map } from 'rxjs';

const body = (id: string) => ({
  '@context': '/contexts/Shipment',
  '@id': `/shipments/${id}`,
  '@type': 'Shipment',
  id,
  trackingNumber: 'TM1234567890',
  trackingStatus: 'in_transit',
});

@Injectable()
class AllowGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    return context.switchToHttp().getRequest() !== undefined;
  }
}

@Injectable()
class EnvelopeInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler) {
    return next.handle().pipe(map((value: unknown) => value));
  }
}

@Controller('items')
class ItemsController {
  @Get(':id')
  get(@Param('id') id: string) {
    return body(id);
  }
}

@Module({
  controllers: [ItemsController],
  providers: [
    { provide: APP_GUARD, useClass: AllowGuard },
    { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
  ],
})
class FloorModule {}

function announce(server: http.Server): void {
  console.log(`listening ${(server.address() as AddressInfo).port}`);
}

async function main(stack: string): Promise<void> {
  if (stack === 'node') {
    const server = http.createServer((req, res) => {
      const json = JSON.stringify(body(req.url!.slice('/items/'.length)));
      res.writeHead(200, {
        'Content-Type': 'application/ld+json; charset=utf-8',
        'Content-Length': Buffer.byteLength(json),
      });
      res.end(json);
    });
    server.listen(0, '127.0.0.1', () => announce(server));
  } else if (stack === 'express') {
    const app = express();
    app.set('etag', false);
    app.disable('x-powered-by');
    app.get('/items/:id', (req, res) => {
      res.json(body(req.params.id));
    });
    const server = app.listen(0, '127.0.0.1', () => announce(server));
  } else if (stack === 'nest-express') {
    const app = await NestFactory.create<NestExpressApplication>(FloorModule, {
      logger: false,
      bodyParser: false,
    });
    app.set('etag', false);
    app.disable('x-powered-by');
    await app.listen(0, '127.0.0.1');
    announce(app.getHttpServer());
  } else if (stack === 'nest-fastify') {
    const app = await NestFactory.create(FloorModule, new FastifyAdapter(), { logger: false });
    await app.listen(0, '127.0.0.1');
    announce(app.getHttpServer());
  } else {
    throw new Error(`unknown FLOOR_STACK ${stack}`);
  }
}

main(process.env.FLOOR_STACK ?? 'node').catch((error) => {
  console.error(error);
  process.exit(1);
});
