import type { CliContext } from '../../src/cli/cli-command';
import { CliUsageError } from '../../src/cli/cli-command';
import { trackCommand } from '../../src/cli/commands/track.command';
import { loadConfig } from '../../src/config/load-config';
import { startSeventeenTrackFake, type SeventeenTrackFake } from '../fakes/seventeen-track-fake';
import { s10Number } from './provider-e2e-support';

/** `npm run cli -- track` against the 17TRACK fake (no database involved). */
describe('track command', () => {
  let fake: SeventeenTrackFake;

  beforeAll(async () => {
    fake = await startSeventeenTrackFake();
  });
  afterAll(() => fake?.close());

  const run = async (args: string[], env: Record<string, string> = {}) => {
    const lines: string[] = [];
    const context = {
      config: loadConfig({ ...env, NODE_ENV: 'test' }),
      print: (line: string) => lines.push(line),
      dataSource: () => Promise.reject(new Error('track needs no database')),
      app: () => Promise.reject(new Error('track needs no application')),
    } as CliContext;
    const code = await trackCommand.run(args, context);
    return { code, output: lines.join('\n') };
  };

  // Relative to now: the engine judges the journey against the real clock.
  const accepted = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 2 * 86_400_000);
  const eta = new Date(accepted.getTime() + 6 * 86_400_000);
  const journey = (number: string) =>
    fake.setJourney(number, {
      carrier: 3011,
      status: 'InTransit',
      subStatus: 'InTransit_Departure',
      eta: eta.toISOString(),
      origin: 'CN',
      destination: 'US',
      events: [
        {
          time: accepted.toISOString(),
          description: 'Acceptance',
          location: 'SHENZHEN',
          country: 'CN',
          stage: 'PickedUp',
          subStatus: 'InTransit_PickedUp',
        },
      ],
    });

  it('prints what the instance provider answers, mapped (settings from the environment)', async () => {
    const number = s10Number('CN');
    journey(number);
    const { code, output } = await run([number], {
      TRACKING_PROVIDER: '17track',
      TRACKING_PROVIDER_CREDENTIALS: JSON.stringify({ apiKey: fake.apiKey, baseUrl: fake.apiUrl }),
    });
    expect(code).toBe(0);
    expect(output).toContain(`17track at ${fake.apiUrl}: ${number} (carrier china-post)`);
    expect(output).toContain('status: in_transit');
    expect(output).toContain(`expected delivery: ${eta.toISOString()}`);
    expect(output).toContain(
      `  ${accepted.toISOString()}  in_transit            PickedUp/InTransit_PickedUp  SHENZHEN, CN  Acceptance`,
    );
    expect(fake.registered.has(number)).toBe(true);
  });

  it('takes --provider, --carrier and --set, and prints JSON', async () => {
    const number = s10Number('CN');
    journey(number);
    const { code, output } = await run([
      number,
      '--provider',
      '17track',
      '--carrier',
      'china-post',
      '--set',
      `apiKey=${fake.apiKey}`,
      '--set',
      `baseUrl=${fake.apiUrl}`,
      '--json',
    ]);
    expect(code).toBe(0);
    const json = JSON.parse(output.slice(output.indexOf('{')));
    expect(json).toMatchObject({
      trackingStatus: 'in_transit',
      originCountryIso2: 'CN',
      destinationCountryIso2: 'US',
      checkpoints: [{ status: 'in_transit', rawStatus: 'PickedUp/InTransit_PickedUp' }],
    });
    const [register] = fake.calls('register').slice(-1);
    expect(register.body).toEqual([{ number, carrier: 3011 }]);
  });

  it('reports refused credentials with exit code 1', async () => {
    const { code, output } = await run([
      s10Number('CN'),
      '--provider',
      '17track',
      '--set',
      'apiKey=wrong',
      '--set',
      `baseUrl=${fake.apiUrl}`,
    ]);
    expect(code).toBe(1);
    expect(output).toMatch(/credentials rejected: 17track rejected the credentials \(HTTP 401\)/);
    // The operator sees what the server said (tenants never do).
    expect(output).toMatch(/provider said: .*Invalid access key/);
  });

  it.each([
    [[], /exactly one tracking number/],
    [['RR1CN', 'RR2CN', '--provider', '17track'], /exactly one tracking number/],
    [['RR123456785CN'], /Give --provider/],
    [['RR123456785CN', '--provider', 'pigeon'], /Unknown provider "pigeon"/],
    [['RR123456785CN', '--provider', '17track', '--carrier', 'nosuch'], /Unknown carrier/],
    [['RR123456785CN', '--provider', '17track', '--set', 'novalue'], /--set takes key=value/],
    [['RR123456785CN', '--colour', 'red'], /Unknown option/],
  ])('%j is a usage error', async (args, message) => {
    const attempt = run(args as string[]);
    await expect(attempt).rejects.toBeInstanceOf(CliUsageError);
    await expect(attempt).rejects.toThrow(message);
  });
});
