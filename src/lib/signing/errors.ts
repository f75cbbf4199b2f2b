/** The person declined in their wallet: features show a calm note, never an error page. */
export class SignatureRejectedError extends Error {
  constructor(message = 'You declined the signature in your wallet. Nothing was changed.') {
    super(message);
    this.name = 'SignatureRejectedError';
  }
}

/** A signed write needs a wallet (or an API key) and neither is there. */
export class WalletRequiredError extends Error {
  constructor(message = 'Connect a wallet, or set an API key in Settings, to make this change.') {
    super(message);
    this.name = 'WalletRequiredError';
  }
}

/**
 * The service's signing types cannot sign all that the write sends: nothing is signed, since a signature over less
 * would let whoever relays the request change the rest. Raised before the wallet opens.
 */
export class UnsignableRequestError extends Error {
  constructor(readonly fields: string[]) {
    super(`This service's signing types cannot sign ${fields.join(', ')}, so nothing was signed or sent. Set an API key in Settings to make this change.`);
    this.name = 'UnsignableRequestError';
  }
}

/** EIP-1193 code 4001, or viem's wrapper of it, anywhere in the cause chain. */
export function isUserRejection(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 8; depth++) {
    const e = current as { code?: unknown; name?: unknown; cause?: unknown };
    if (e.code === 4001 || e.name === 'UserRejectedRequestError') return true;
    current = e.cause;
  }
  return false;
}

/** A grantee's write outside what their grant allows: said before the wallet opens, nothing signed or sent. */
export class OutsideGrantError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutsideGrantError';
  }
}
