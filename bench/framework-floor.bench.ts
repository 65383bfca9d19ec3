/**
 * What each HTTP stack costs before any work: CPU time per request (from /proc) and
 * requests/s of a constant JSON-LD answer, for node:http, Express 5, Nest 11 on Express (as
 * the API configures it, with one global guard and interceptor) and Nest 11 on Fastify, in
 * alternating rounds. It bounds what the API's look-up can reach against the bare server
 * (bench/README.md, "The framework's floor").
 *
 *   node -r ts-node/register/transpile-only bench/framework-floor.bench.ts \
 *     [--seconds 5] [--rounds 3] [--connections 8]
 */
import { parseArgs } from 'node:util';
import { cpuMs, machineLoad, startScript } from './lib/bench-setup';
import { median, runLoad } from './lib/load-generator';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '8' },
  },
});
const STACKS = ['node', 'express', 'nest-express', 'nest-fastify'] as const;

async function main(): Promise<void> {
  const seconds = Number(values.seconds);
  const connections = Number(values.connections);
  const load = [machineLoad()];
  const servers = new Map<
    string,
    { child: import('node:child_process').ChildProcess; port: number }
  >();
  try {
    for (const stack of STACKS)
      servers.set(
        stack,
        await startScript('bench/servers/framework-floor-server.ts', { FLOOR_STACK: stack }),
      );
    const runs = new Map<string, Array<{ rps: number; cpu: number }>>(STACKS.map((s) => [s, []]));
    const one = async (stack: string, time: number) => {
      const { child, port } = servers.get(stack)!;
      const before = cpuMs(child.pid!);
      const result = await runLoad(`http://127.0.0.1:${port}/items/42`, {}, connections, time);
      if (result.errors) throw new Error(`${stack}: ${result.errors} errors`);
      return { rps: result.rps, cpu: (cpuMs(child.pid!) - before) / result.requests };
    };
    for (const stack of STACKS) await one(stack, 1); // warm-up
    for (let round = 0; round < Number(values.rounds); round++) {
      const order = round % 2 === 0 ? STACKS : [...STACKS].reverse();
      for (const stack of order) runs.get(stack)!.push(await one(stack, seconds));
    }
    load.push(machineLoad());
    console.log(
      `\n${connections} connections, ${values.rounds} alternating rounds of ${seconds} s, medians; ${load.join(', ')}\n`,
    );
    console.log('| stack | req/s | CPU µs/req |');
    console.log('| --- | --- | --- |');
    for (const stack of STACKS) {
      const r = runs.get(stack)!;
      const rps = median(r.map((x) => x.rps));
      const cpu = median(r.map((x) => x.cpu)) * 1000;
      console.log(`| ${stack} | ${rps.toFixed(0)} | ${cpu.toFixed(0)} |`);
    }
  } finally {
    for (const { child } of servers.values()) child.kill('SIGTERM');
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
