import { Controller, Get } from '@nestjs/common';
import { HealthCheck, HealthCheckService } from '@nestjs/terminus';
import { DataSource } from 'typeorm';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { Access } from '../access/access.decorator';
import { ApiError } from '../common/errors/api-errors';
import { DATABASE_RETRY_AFTER } from '../database/outage/database-failure';
import { DatabaseOutage } from '../database/outage/database-outage';
import { pingDatabase } from './database-ping';

/** Terminus's answer: `{status, info, error, details}`, a check's result by name in each. */
const HEALTH = {
  description: 'The probe passed.',
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['status'],
        properties: {
          status: { type: 'string', enum: ['ok'] },
          info: { type: 'object', additionalProperties: true },
          error: { type: 'object', additionalProperties: true },
          details: { type: 'object', additionalProperties: true },
        },
      },
    },
  },
};

// Probes of load balancers and orchestrators: no token. Terminus writes the answers.
@Access('public')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly dataSource: DataSource,
    private readonly outage: DatabaseOutage,
  ) {}

  /** Liveness: the process answers HTTP. Never touches dependencies. */
  @Get()
  @ApiOperation({
    summary: 'Liveness probe: the process answers HTTP.',
    description:
      'Public (no token). Answers 200 `{status: "ok"}` as long as the process serves HTTP; it never touches the database or other dependencies, so a restart is only asked for when the process itself is stuck.',
  })
  @ApiOkResponse(HEALTH)
  @HealthCheck()
  live() {
    return this.health.check([]);
  }

  /**
   * Readiness: PostgreSQL answers `SELECT 1` through the pool within 2 s. Otherwise 503 with
   * Retry-After, so load balancers stop sending traffic; during a known outage at once, and
   * the outage is logged once (DatabaseOutage), not on every probe.
   */
  @Get('ready')
  @ApiOperation({
    summary: 'Readiness probe: the database answers.',
    description:
      'Public (no token). Answers 200 `{status: "ok", info, error, details}` when PostgreSQL answers `SELECT 1` through the pool within 2 s; otherwise 503 with Retry-After and the reason in `details.database`, at once during a known outage, so load balancers stop sending traffic.',
  })
  @ApiOkResponse(HEALTH)
  async ready() {
    const down = (message: string) =>
      new ApiError(
        503,
        'The database is unavailable.',
        { 'Retry-After': DATABASE_RETRY_AFTER.unavailable },
        { details: { database: { status: 'down', message } } },
      );
    if (this.outage.isDown)
      throw down(`unavailable for ${this.outage.downForSeconds.toFixed(0)} s`);
    try {
      await pingDatabase(this.dataSource, 2000);
    } catch (error) {
      this.outage.report(error, 'background');
      throw down(error instanceof Error ? error.message : String(error));
    }
    const up = { database: { status: 'up' } };
    return { status: 'ok', info: up, error: {}, details: up };
  }
}
