/**
 * Re-checks a zone history exported by the service (NDJSON, one entry a line) without the service:
 *   npm run verify-history -- history.ndjson [--rpc http://127.0.0.1:8545]
 * Every signed entry's EIP-712 hash is recomputed from the entry itself and its signature checked (recovery; a
 * contract account through ERC-1271 when an RPC URL is given), and the entries are checked to follow one another
 * (serials, each change starting from the record as the entry before left it). Prints what it checked; exits 1
 * when an entry fails or the chain breaks.
 */
import { readFile } from 'node:fs/promises';
import { createPublicClient, getAddress, http } from 'viem';
import { verifyHistoryEntry, type AskAccount } from '#core/eip712/verify-history-entry.ts';
import { continuityProblems } from '#core/history/continuity.ts';
import { historyEntry, type HistoryEntry } from '#core/wire/history.ts';

function parseArgs(argv: string[]): { file: string; rpc: string | null } {
  let file: string | null = null;
  let rpc: string | null = null;
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--rpc') rpc = argv[(i += 1)] ?? null;
    else file ??= argv[i];
  }
  if (!file) throw new Error('Usage: npm run verify-history -- <history.ndjson> [--rpc <url>]');
  return { file, rpc };
}

const parseJson = (line: string): unknown => {
  try {
    return JSON.parse(line);
  } catch {
    return null;
  }
};

function askThrough(rpc: string): AskAccount {
  const client = createPublicClient({ transport: http(rpc) });
  return ({ account, hash, signature }) => client.verifyHash({ address: getAddress(account), hash, signature });
}

async function main(): Promise<number> {
  const { file, rpc } = parseArgs(process.argv.slice(2));
  const askAccount = rpc ? askThrough(rpc) : undefined;
  const lines = (await readFile(file, 'utf8')).split('\n').filter((line) => line.trim() !== '');
  const tally = { valid: 0, invalid: 0, unsigned: 0, needsChain: 0 };
  const read: HistoryEntry[] = [];
  for (const [index, line] of lines.entries()) {
    const where = `line ${index + 1}`;
    const parsed = historyEntry.safeParse(parseJson(line));
    if (!parsed.success) {
      tally.invalid += 1;
      console.log(`✗ ${where}: not a history entry (${parsed.error.issues[0]?.path.join('.') || 'JSON'}: ${parsed.error.issues[0]?.message})`);
      continue;
    }
    const entry = parsed.data;
    read.push(entry);
    const title = `${where} #${entry.id} serial ${entry.serial} ${entry.at} ${entry.operation} by ${entry.actor.wallet}${entry.actor.account ? ` for ${entry.actor.account}` : ''} (${entry.actor.via})`;
    const result = await verifyHistoryEntry(entry, askAccount);
    if (result.status === 'unsigned') {
      tally.unsigned += 1;
      console.log(`- ${title}: not signed (${entry.actor.via === 'api-key' ? 'made with an API key' : 'applied by an order'}), nothing to verify`);
    } else if (result.status === 'valid') {
      tally.valid += 1;
      console.log(`✓ ${title}: signed by ${result.signer}${result.account ? ` for ${result.account}` : ''} (${result.by === 'key' ? 'recovered: a key' : 'accepted by the account through ERC-1271'})`);
      for (const check of result.checked) console.log(`    ${check}`);
    } else if (result.status === 'needs-erc1271') {
      tally.needsChain += 1;
      console.log(`? ${title}: needs the chain: ${result.account} must accept the signature over ${result.hash} (pass --rpc <url>)`);
      for (const check of result.checked) console.log(`    ${check}`);
    } else {
      tally.invalid += 1;
      console.log(`✗ ${title}: does not verify`);
      for (const problem of result.problems) console.log(`    ${problem}`);
    }
  }
  // Between entries: each change starts where the previous entry left the record (unsigned entries included).
  const breaks = continuityProblems(read);
  if (breaks.length === 0) console.log(`✓ continuity: serials grow, and every change starts from the record as the entry before left it`);
  else {
    console.log('✗ continuity: the entries do not follow one another');
    for (const problem of breaks) console.log(`    ${problem}`);
  }
  console.log(`${lines.length} entries: ${tally.valid} verified, ${tally.invalid} failed, ${tally.needsChain} need a chain (ERC-1271), ${tally.unsigned} unsigned`);
  return tally.invalid > 0 || breaks.length > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(error.message);
    process.exit(2);
  },
);
