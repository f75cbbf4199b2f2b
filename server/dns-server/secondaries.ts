import type { Packet } from 'dns-packet';
import type { ManagedSettings } from '#core/dns/managed.ts';
import { plainName } from '#core/dns/names.ts';
import type { Queryable } from '../db/database.ts';
import { catalogIxfr, type CatalogSource } from './catalog.ts';
import { ixfrAnswer } from './ixfr.ts';
import { startNotifier, type Notifier } from './notify.ts';
import type { TsigKey } from './tsig.ts';
import type { ZoneSource } from './zone-source.ts';

/** What the DNS server needs to serve real secondaries: the TSIG keys and the history to answer IXFR from. */
export interface SecondaryServing {
  keys: TsigKey[];
  db: Queryable;
  journalDays: number;
  /** The forwarder's addresses: a forwarded zone's apex records, in the IXFR differences. */
  managed: ManagedSettings;
  /** The catalog zone, whose IXFR comes from its own journal (catalog.ts). */
  catalog?: CatalogSource;
}

const FLAG_AA = 0x400;

/** IXFR from the history when the client's serial is covered; null = answer as resolve does (the whole zone, or a refusal). */
export async function incrementalTransfer(query: Packet, zones: ZoneSource, serving: SecondaryServing): Promise<Packet[] | null> {
  const [question] = query.questions ?? [];
  if (!question || (question.type as string) !== 'IXFR' || (query.questions ?? []).length !== 1) return null;
  const qname = plainName(question.name);
  const reply = (answers: Packet['answers']): Packet => ({ id: query.id ?? 0, type: 'response', flags: FLAG_AA, questions: query.questions, answers, authorities: [], additionals: [] });
  if (serving.catalog && qname === serving.catalog.zone) return catalogIxfr(serving.catalog, query, reply);
  const snapshot = await zones.find(qname);
  if (!snapshot || snapshot.zone !== qname) return null;
  // A signed zone changes its signatures and NSEC chain with every change, which the history does not hold: they come
  // from the steps this instance signed (signed-steps.ts); without every step since the client's serial, the whole zone.
  const signed = snapshot.signed ? (from: number) => zones.signedSteps(snapshot.zone, from, snapshot.serial) : undefined;
  return ixfrAnswer(serving.db, query, snapshot, { days: serving.journalDays, managed: serving.managed, signed }, reply);
}

/**
 * NOTIFY on every announced change: the zone itself, and the catalog when its serial moved (a zone was added).
 * Answers how to stop.
 */
export async function notifyOnChange(zones: ZoneSource, catalog: CatalogSource, targets: string[], key: TsigKey | undefined): Promise<Notifier & { stop(): Promise<void> }> {
  const notifier = await startNotifier(targets, key);
  let catalogSerial = await catalog.serial();
  const stop = zones.onChange((zone) => {
    if (!zone) return;
    notifier.notify(zone);
    // One indexed read of the catalog's journal: the catalog itself is not read for a change of a zone's records.
    void catalog
      .serial()
      .then((serial) => {
        if (serial === catalogSerial) return;
        catalogSerial = serial;
        notifier.notify(catalog.zone);
      })
      .catch(() => undefined);
  });
  return Object.assign(notifier, {
    async stop() {
      stop();
      await notifier.close();
    },
  });
}
