import { readdir, readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS_DIR, artifactModule, artifactModuleFile, compileContracts, CONTRACT_NAMES } from './compile-contracts.ts';

describe('committed contract artifacts', () => {
  it('match a fresh compile of contracts/*.sol (run npm run build:contracts after editing a contract)', async () => {
    const fresh = await compileContracts();
    for (const artifact of fresh) {
      const file = artifactModuleFile(artifact.contractName);
      const committed = (await import(pathToFileURL(file).href)) as { contractName: string; abi: unknown; bytecode: string };
      expect(committed.contractName).toBe(artifact.contractName);
      expect(committed.bytecode, `${artifact.contractName} bytecode`).toBe(artifact.bytecode);
      expect(committed.abi, `${artifact.contractName} abi`).toEqual(artifact.abi);
      expect(await readFile(file, 'utf8'), `${artifact.contractName} module`).toBe(artifactModule(artifact));
    }
    // One artifact set: nothing else in the folder (no second copy, no artifact of a contract gone).
    expect((await readdir(ARTIFACTS_DIR)).sort()).toEqual(CONTRACT_NAMES.map((name) => `${name}.ts`).sort());
  }, 180_000); // solc-js compiles in about 5 s on an idle machine; the margin is for a busy one.
});
