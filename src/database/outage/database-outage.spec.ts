import { DatabaseOutage } from './database-outage';

const refused = () =>
  Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5'), { code: 'ECONNREFUSED' });

/** A database the test switches up and down; probes follow it. */
function fixture() {
  const state = { up: false, probes: 0 };
  const lines: string[] = [];
  const outage = new DatabaseOutage(
    async () => {
      state.probes++;
      if (!state.up) throw refused();
    },
    { warn: (m) => lines.push(`warn ${m}`), log: (m) => lines.push(`log ${m}`) },
    { probeIntervalMs: 5, busyLogIntervalMs: 60_000 },
  );
  const until = async (condition: () => boolean) => {
    for (let i = 0; i < 400 && !condition(); i++) await new Promise((r) => setTimeout(r, 5));
    expect(condition()).toBe(true);
  };
  return { state, lines, outage, until };
}

describe('DatabaseOutage', () => {
  it('logs an outage once when it begins and once when it ends, however many requests fail', async () => {
    const { state, lines, outage, until } = fixture();
    for (let i = 0; i < 50; i++) expect(outage.report(refused())).toBe('unavailable');
    await until(() => outage.isDown);
    for (let i = 0; i < 50; i++) outage.report(refused());
    expect(outage.downForSeconds).toBeGreaterThanOrEqual(0);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^warn database unavailable \(ECONNREFUSED: connect ECONNREFUSED/);

    state.up = true;
    await until(() => !outage.isDown);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(
      /^warn database available again after [\d.]+ s \(100 request\(s\) answered 503/,
    );
    expect(outage.downForSeconds).toBe(0);
    await outage.stop();
  });

  it('a broken connection while the database answers is one warning, not an outage', async () => {
    const { state, lines, outage, until } = fixture();
    state.up = true;
    outage.report(Object.assign(new Error('Connection terminated unexpectedly')));
    await until(() => lines.length === 1);
    expect(outage.isDown).toBe(false);
    expect(lines[0]).toMatch(/^warn a database connection failed .* but the database answers/);
  });

  it('ignores errors that are not the database state and logs busy answers at most once per interval', async () => {
    const { lines, outage, state } = fixture();
    expect(outage.report(new Error('boom'))).toBeNull();
    const timeout = Object.assign(new Error('canceling statement due to statement timeout'), {
      code: '57014',
    });
    for (let i = 0; i < 10; i++) expect(outage.report(timeout)).toBe('busy');
    expect(lines).toEqual([
      expect.stringMatching(/^warn database busy: 1 request\(s\) answered 503/),
    ]);
    expect(state.probes).toBe(0);
  });

  it('a failure reported by background work starts an outage too, without counting a request', async () => {
    const { state, lines, outage, until } = fixture();
    outage.report(refused(), 'background');
    await until(() => outage.isDown);
    state.up = true;
    await until(() => !outage.isDown);
    expect(lines[1]).toMatch(/\(0 request\(s\) answered 503 meanwhile\)/);
    await outage.stop();
  });
});
