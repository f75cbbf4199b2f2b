import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { ABIS_FILE, abisModule, artifactFile, compileContracts } from './compile.ts';

describe('committed contract artifacts', () => {
  it('match a fresh compile of contracts/*.sol (run scripts/compile-contracts.ts after editing a contract)', async () => {
    const fresh = await compileContracts();
    for (const artifact of fresh) {
      const committed = JSON.parse(await readFile(artifactFile(artifact.contractName), 'utf8')) as typeof artifact;
      expect(committed.bytecode, `${artifact.contractName} bytecode`).toBe(artifact.bytecode);
      expect(committed.abi, `${artifact.contractName} abi`).toEqual(artifact.abi);
    }
    expect(await readFile(ABIS_FILE, 'utf8')).toBe(abisModule(fresh));
  }, 180_000); // solc-js compiles in about 5 s on an idle machine; the margin is for a busy one.
});
