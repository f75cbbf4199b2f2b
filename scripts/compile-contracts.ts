// Compiles contracts/*.sol into the committed artifacts in server/chain/artifacts, so the service never needs solc
// at run time. Run after editing a contract: `node --import tsx scripts/compile-contracts.ts`.
import { mkdir, writeFile } from 'node:fs/promises';
import { ABIS_FILE, ARTIFACTS_DIR, abisModule, artifactFile, artifactJson, compileContracts } from '../server/chain/compile.ts';

const started = performance.now();
const artifacts = await compileContracts();
await mkdir(ARTIFACTS_DIR, { recursive: true });
for (const artifact of artifacts) await writeFile(artifactFile(artifact.contractName), artifactJson(artifact));
await writeFile(ABIS_FILE, abisModule(artifacts));
const sizes = artifacts.map((a) => `${a.contractName} ${(a.bytecode.length - 2) / 2} B`).join(', ');
console.log(`compiled in ${Math.round(performance.now() - started)} ms: ${sizes}`);
