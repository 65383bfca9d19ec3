import { PostgresSupervisor, type SupervisedServer } from './postgres-supervisor';

function server(failures: number) {
  const state = { up: true, restartCalls: 0 };
  const fake: SupervisedServer = {
    running: () => state.up,
    exitReason: async () => 'killed by SIGKILL',
    restart: async () => {
      state.restartCalls++;
      if (state.restartCalls <= failures) throw new Error('could not create shared memory\nmore');
      state.up = true;
    },
  };
  return { state, fake };
}

describe('PostgresSupervisor', () => {
  it('leaves a running server alone', async () => {
    const { state, fake } = server(0);
    const supervisor = new PostgresSupervisor(fake, () => undefined);
    await supervisor.check();
    expect(state.restartCalls).toBe(0);
  });

  it('restarts a server that is gone, with backoff between failed attempts, logging why', async () => {
    const { state, fake } = server(2);
    const lines: string[] = [];
    const supervisor = new PostgresSupervisor(fake, (level, m) => lines.push(`${level} ${m}`), {
      backoffMs: [0, 1, 2],
    });
    state.up = false;
    const first = supervisor.check();
    expect(supervisor.check()).toBe(first); // one recovery at a time
    await first;
    expect(state).toEqual({ up: true, restartCalls: 3 });
    expect(supervisor.restarts).toBe(1);
    expect(lines).toEqual([
      'warn embedded PostgreSQL is gone (killed by SIGKILL); restarting it',
      'warn embedded PostgreSQL restart attempt 1 failed: could not create shared memory',
      'warn embedded PostgreSQL restart attempt 2 failed: could not create shared memory',
      expect.stringMatching(/^warn embedded PostgreSQL restarted after [\d.]+ s \(attempt 3\)$/),
    ]);
  });

  it('restarts nothing once stopped (shutdown stops the server on purpose)', async () => {
    const { state, fake } = server(0);
    const supervisor = new PostgresSupervisor(fake, () => undefined);
    await supervisor.stop();
    state.up = false;
    await supervisor.check();
    expect(state.restartCalls).toBe(0);
  });
});
