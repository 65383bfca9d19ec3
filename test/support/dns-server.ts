import { createSocket, Socket } from 'node:dgram';

/**
 * A tiny authoritative DNS server on 127.0.0.1 (UDP, RFC 1035 messages: A, AAAA, CNAME and TXT
 * answers, NXDOMAIN for unknown names) for custom domain checks: point the service's resolver
 * at it with `DNS_SERVERS=127.0.0.1:<port>`, and change `zone` as a test goes.
 */

export type Records = { A?: string[]; CNAME?: string; TXT?: string[] };
const TYPES: Record<number, 'A' | 'AAAA' | 'CNAME' | 'TXT'> = {
  1: 'A',
  28: 'AAAA',
  5: 'CNAME',
  16: 'TXT',
};
const CODES = { A: 1, CNAME: 5, TXT: 16 } as const;

function encodeName(name: string): Buffer {
  const parts = name
    .split('.')
    .filter(Boolean)
    .map((label) => {
      const b = Buffer.from(label, 'ascii');
      return Buffer.concat([Buffer.from([b.length]), b]);
    });
  return Buffer.concat([...parts, Buffer.from([0])]);
}

function readName(msg: Buffer, offset: number): { name: string; end: number } {
  const labels: string[] = [];
  let i = offset;
  while (msg[i] !== 0) {
    labels.push(msg.subarray(i + 1, i + 1 + msg[i]).toString('ascii'));
    i += msg[i] + 1;
  }
  return { name: labels.join('.').toLowerCase(), end: i + 1 };
}

function record(name: string, type: number, rdata: Buffer): Buffer {
  const fixed = Buffer.alloc(10);
  fixed.writeUInt16BE(type, 0);
  fixed.writeUInt16BE(1, 2); // IN
  fixed.writeUInt32BE(60, 4); // TTL
  fixed.writeUInt16BE(rdata.length, 8);
  return Buffer.concat([encodeName(name), fixed, rdata]);
}

/** Answers from `zone`; follows one CNAME for A questions like a recursive resolver would. */
export function startDns(zone: Map<string, Records>): Promise<Socket> {
  const socket = createSocket('udp4');
  socket.on('message', (msg, rinfo) => {
    const { name, end } = readName(msg, 12);
    const qtype = msg.readUInt16BE(end);
    const question = msg.subarray(12, end + 4);
    const entry = zone.get(name);
    const answers: Buffer[] = [];
    const type = TYPES[qtype];
    if (entry && type === 'CNAME' && entry.CNAME)
      answers.push(record(name, CODES.CNAME, encodeName(entry.CNAME)));
    if (entry && type === 'TXT')
      for (const t of entry.TXT ?? []) {
        const b = Buffer.from(t, 'utf8');
        answers.push(record(name, CODES.TXT, Buffer.concat([Buffer.from([b.length]), b])));
      }
    if (entry && type === 'A') {
      let owner = name;
      let target: Records | undefined = entry;
      if (entry.CNAME) {
        answers.push(record(name, CODES.CNAME, encodeName(entry.CNAME)));
        owner = entry.CNAME;
        target = zone.get(entry.CNAME);
      }
      for (const a of target?.A ?? [])
        answers.push(record(owner, CODES.A, Buffer.from(a.split('.').map(Number))));
    }
    const header = Buffer.alloc(12);
    msg.copy(header, 0, 0, 2); // id
    header.writeUInt16BE(entry ? 0x8180 : 0x8183, 2); // response, RD, RA; NXDOMAIN when unknown
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    socket.send(Buffer.concat([header, question, ...answers]), rinfo.port, rinfo.address);
  });
  return new Promise((resolve) => socket.bind(0, '127.0.0.1', () => resolve(socket)));
}
