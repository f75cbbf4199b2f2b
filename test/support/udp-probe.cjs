// A DNS client in a process of its own, for latency under load (server/dns-server/flood.test.ts): for the given
// seconds it sends one of the given questions (in turn) every millisecond over one UDP socket, whether or not the
// answers before came back, so that a stall of the server shows in as many samples as it lasted; then it prints each
// question's latency in ms (an unanswered one counts as the 1 s it was waited for) and the rcodes, as JSON. Its own
// process, so that whatever loads the server never delays this client's reads.
// Usage: node udp-probe.cjs <port> <seconds> <name>:<type> …
'use strict';
const { createSocket } = require('node:dgram');
const dnsPacket = require('dns-packet');

const [port, seconds, ...asked] = process.argv.slice(2);
const TIMEOUT_MS = 1000;
const queries = asked.map((q) => {
  const [name, type] = q.split(':');
  return dnsPacket.encode({ type: 'query', id: 0, flags: 0, questions: [{ name, type, class: 'IN' }] });
});
const socket = createSocket('udp4');
const latencies = [];
const rcodes = {};
/** Sent and not yet answered: id → when it was sent. */
const waiting = new Map();
let lost = 0;
let sent = 0;
const started = process.hrtime.bigint();
const elapsedMs = () => Number(process.hrtime.bigint() - started) / 1e6;

function expire(now) {
  for (const [id, at] of waiting) {
    if (now - at < TIMEOUT_MS) break;
    waiting.delete(id);
    lost += 1;
    latencies.push(TIMEOUT_MS);
  }
}

socket.on('message', (answer) => {
  if (answer.length < 12) return;
  const at = waiting.get(answer.readUInt16BE(0));
  if (at === undefined) return;
  waiting.delete(answer.readUInt16BE(0));
  latencies.push(elapsedMs() - at);
  const rcode = answer[3] & 0xf;
  rcodes[rcode] = (rcodes[rcode] ?? 0) + 1;
});

socket.connect(Number(port), '127.0.0.1', () => {
  const ticker = setInterval(() => {
    const now = elapsedMs();
    expire(now);
    if (now >= Number(seconds) * 1000) {
      if (waiting.size > 0) return;
      clearInterval(ticker);
      socket.close();
      process.stdout.write(JSON.stringify({ latencies, rcodes, lost }));
      return;
    }
    const id = sent & 0xffff;
    const query = Buffer.from(queries[sent % queries.length]);
    query.writeUInt16BE(id, 0);
    sent += 1;
    waiting.set(id, now);
    socket.send(query);
  }, 1);
});
