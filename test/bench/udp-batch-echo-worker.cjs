// Prototype (issue 37): one worker answering every query with a fixed NOERROR answer through poll + recvmmsg + sendmmsg.
'use strict';
const { workerData, parentPort } = require('node:worker_threads');
const { openBatch } = require('../../server/dns-server/udp-batch.cjs');
const io = openBatch();
if (io === null) throw new Error('no batched UDP here');
io.use(workerData.fd);
const stop = new Int32Array(workerData.stop);
let answered = 0;
while (Atomics.load(stop, 0) === 0) {
  let n = io.receive();
  if (n === 0) {
    if (!io.wait(200)) continue;
    n = io.receive();
  }
  for (let i = 0; i < n; i += 1) {
    const len = io.lengths[i];
    if (len < 12) continue;
    const out = io.next();
    io.queries[i].copy(out, 0, 0, len);
    out[2] |= 0x84; // QR, AA
    io.reply(i, len);
  }
  answered += io.flush();
}
parentPort.postMessage(answered);
