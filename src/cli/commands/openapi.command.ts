import { CliCommand, parseOptions } from '../cli-command';

export const openapiCommand: CliCommand = {
  name: 'openapi',
  description:
    'Print the OpenAPI description the API serves at /docs.json (for linting and client generation)',
  usage: '[--output <file>]',
  async run(args, context) {
    const values = parseOptions(args, { output: { type: 'string' } });
    // The description only: no background work in this process.
    Object.assign(process.env, {
      RETENTION_ENABLED: 'false',
      JOB_WORKERS_ENABLED: 'false',
      TRACKING_REFRESH_ENABLED: 'false',
      EVENT_DELIVERY_ENABLED: 'false',
      WORKSPACE_DELETE_INTERVAL_SECONDS: '0',
      NOTE_REMINDER_INTERVAL_SECONDS: '0',
    });
    const { NestFactory } = await import('@nestjs/core');
    const { AppModule } = await import('../../app.module');
    const { configureApp } = await import('../../app.setup');
    const { openApiDocument } = await import('../../hydra/docs/openapi-setup');
    const app = await NestFactory.create(AppModule, { bodyParser: false, logger: ['error'] });
    try {
      configureApp(app as never);
      await app.init();
      const text = JSON.stringify(openApiDocument(app), null, 2);
      if (values.output) {
        const { mkdirSync, writeFileSync } = await import('fs');
        const { dirname } = await import('path');
        mkdirSync(dirname(values.output), { recursive: true });
        writeFileSync(values.output, `${text}\n`);
      } else context.print(text);
    } finally {
      await app.close();
    }
  },
};
