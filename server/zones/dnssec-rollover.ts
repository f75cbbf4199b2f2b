import { nextPhase, ROLLOVER_PHASE_WORDS } from '#core/dns/rollover.ts';
import type { Config } from '../config.ts';
import { publicView, readSigning } from '../dnssec/keys.ts';
import { dueAt, dueRollovers, enterPhase, finishRollover, postpone, readRollover, type RolloverTimers } from '../dnssec/rollover.ts';
import { serviceAuthor } from '../history/record-change.ts';
import { startPollLoop } from '../support/poll-loop.ts';
import { changeZone, type PipelineServices, type ZoneCommand } from './pipeline.ts';

/** The SOA, NS and NSEC TTLs the zones are served with, and the SOA timers, from the configuration. */
export function rolloverTimers(config: Pick<Config, 'DNS_SOA_REFRESH' | 'DNS_SOA_RETRY' | 'DNS_SOA_MINIMUM'>): RolloverTimers {
  return { refresh: config.DNS_SOA_REFRESH, retry: config.DNS_SOA_RETRY, minimum: config.DNS_SOA_MINIMUM, soaTtl: 3600, nsTtl: 3600 };
}

/**
 * The rollover's next step, once its phase has lasted what RFC 6781 asks (server/dnssec/rollover.ts): a change of
 * the zone like any other (a new serial, so every instance signs and publishes what the next phase says, and the
 * secondaries are sent a NOTIFY), whose history entry is the service's, saying which step. The wait is measured
 * again under the zone's lock: a TTL raised since the phase began puts the step off (no entry); a step another
 * instance took a moment ago leaves nothing due.
 */
function rolloverStepCommand(now: Date, timers: RolloverTimers): ZoneCommand<boolean> {
  return {
    async apply(tx, zone) {
      const [signed, rolling] = [await readSigning(tx, zone.name), await readRollover(tx, zone.name)];
      if (!signed || !rolling?.dueAt || rolling.dueAt > now) return { result: false, facts: null };
      const due = await dueAt(tx, zone.name, rolling.phase, rolling.since, timers);
      if (due && due > now) {
        await postpone(tx, zone.name, due);
        return { result: false, facts: null };
      }
      const next = nextPhase(rolling.phase);
      const [from, to] = [publicView(zone.name, signed.publicKey), publicView(zone.name, rolling.publicKey)];
      if (next === 'done') await finishRollover(tx, zone.name);
      else await enterPhase(tx, zone.name, next, now, timers);
      const phase = { before: rolling.phase, after: next };
      return { result: true, facts: { changes: [], dnssecRollover: { from: { algorithm: from.algorithm, keyTag: from.keyTag }, to: { algorithm: to.algorithm, keyTag: to.keyTag }, phase } } };
    },
  };
}

/** Takes every rollover step due at `now`. Answers the zones that moved on. */
async function advanceDueRollovers(services: PipelineServices, now: Date): Promise<string[]> {
  const moved: string[] = [];
  const timers = rolloverTimers(services.config);
  for (const zoneName of await dueRollovers(services.db, now)) {
    const rolling = await readRollover(services.db, zoneName);
    const next = rolling ? nextPhase(rolling.phase) : 'done';
    const author = serviceAuthor('advanceDnssecRollover', `DNSSEC algorithm rollover: ${ROLLOVER_PHASE_WORDS[next]}`);
    if (await changeZone(services, { zoneName, by: { author }, command: rolloverStepCommand(now, timers), now })) moved.push(zoneName);
  }
  return moved;
}

/**
 * Runs advanceDueRollovers now, every `intervalMs`, and at once when woken (the test clock moved): `wake()` answers
 * once a round that began after it has finished. A failed round is reported and tried again at the next.
 */
export function startRolloverWorker(services: PipelineServices, options: { intervalMs?: number; onError?: (error: Error) => void } = {}): { wake(): Promise<void>; stop(): Promise<void> } {
  const loop = startPollLoop(() => advanceDueRollovers(services, services.now()).then(() => undefined), { pollMs: options.intervalMs ?? 60_000, onError: options.onError });
  return { wake: loop.wake, stop: loop.stop };
}
