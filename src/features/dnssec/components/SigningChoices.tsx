import type { DnssecState } from '#core/wire/dnssec.ts';
import { Button, Checkbox, Select } from '@/ui/index.ts';
import { ALGORITHM_NAMES, DENIAL_WORDS, SAME_DS_NOTE, type SigningChoice } from '../dnssec-words.ts';

const ALGORITHM_OPTIONS = [
  { value: '13', label: `13 — ${ALGORITHM_NAMES[13]} (default)` },
  { value: '15', label: `15 — ${ALGORITHM_NAMES[15]} (smaller signatures)` },
];
const DENIAL_OPTIONS = [
  { value: 'nsec', label: DENIAL_WORDS.nsec },
  { value: 'nsec3', label: DENIAL_WORDS.nsec3 },
];

/**
 * How the zone is signed: the algorithm (chosen before signing; on a signed zone another one starts an algorithm
 * rollover, which asks first) and how absence is proven (NSEC or NSEC3, changed at any time with the same key, so the
 * DS at the parent stays).
 */
export function SigningChoices({ state, choice, onChange, onApply, onRollover, busy }: {
  state: DnssecState;
  choice: SigningChoice;
  onChange: (next: SigningChoice) => void;
  /** Signs the changed proof of absence of a signed zone. */
  onApply: () => void;
  /** Asks to roll the signed zone over to the chosen algorithm. */
  onRollover: () => void;
  busy: boolean;
}) {
  // During a rollover the zone's algorithm is the one it rolls to, and no other can be chosen until it is done.
  const zoneAlgorithm = state.rollover?.to.algorithm ?? state.algorithm;
  const rolling = state.enabled && choice.algorithm !== zoneAlgorithm && !state.rollover;
  const changed = state.enabled && !rolling && (choice.denial !== state.denial || choice.nsec3OptOut !== state.nsec3OptOut);
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-semibold">How the zone is signed</legend>
      <Select
        label="Algorithm"
        value={String(state.rollover ? zoneAlgorithm : choice.algorithm)}
        disabled={!!state.rollover}
        hint={
          state.rollover
            ? `Rolling over to algorithm ${zoneAlgorithm}: another can be chosen once it is done.`
            : state.enabled
              ? 'Another algorithm on a signed zone starts an algorithm rollover: a new key, both signing, and the DS at your registrar replaced when this panel asks.'
              : 'Used when you turn DNSSEC on.'
        }
        options={ALGORITHM_OPTIONS}
        onChange={(e) => onChange({ ...choice, algorithm: Number(e.target.value) as SigningChoice['algorithm'] })}
      />
      <Select label="Proof that a name does not exist" value={choice.denial} options={DENIAL_OPTIONS} onChange={(e) => onChange({ ...choice, denial: e.target.value as SigningChoice['denial'] })} />
      {choice.denial === 'nsec3' ? (
        <Checkbox
          label="Opt-out: leave delegations without DS out of the chain"
          hint="Only worth it with very many unsigned delegations; wildcard answers in such a zone are then unsigned to validators."
          checked={choice.nsec3OptOut}
          onChange={(e) => onChange({ ...choice, nsec3OptOut: e.target.checked })}
        />
      ) : null}
      {rolling ? (
        <Button size="sm" disabled={busy} onClick={onRollover}>
          Roll over to algorithm {choice.algorithm}
        </Button>
      ) : null}
      {changed ? (
        <div className="flex flex-wrap items-center gap-2">
          <Button size="sm" disabled={busy} onClick={onApply}>
            Sign with {DENIAL_WORDS[choice.denial].split(' ')[0]}
          </Button>
          <p className="text-sm" role="note">{SAME_DS_NOTE}</p>
        </div>
      ) : null}
    </fieldset>
  );
}
