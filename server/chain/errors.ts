import { BaseError, ContractFunctionRevertedError } from 'viem';

/** The custom error a contract call reverted with (e.g. `InsufficientBalance`), or null for any other failure. */
export function revertName(error: unknown): string | null {
  if (!(error instanceof BaseError)) return null;
  const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError);
  return reverted instanceof ContractFunctionRevertedError ? (reverted.data?.errorName ?? null) : null;
}
