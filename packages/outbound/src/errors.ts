/** Why an outbound request failed; only the caller's log sees it, the user sees `message`. */
export type OutboundFailure =
  | 'INVALID_URL'
  | 'SCHEME'
  | 'ADDRESS_REFUSED'
  | 'DNS'
  | 'NETWORK'
  | 'TIMEOUT'
  | 'TOO_MANY_REDIRECTS'
  | 'TOO_LARGE';

/**
 * The one text a user sees for a URL that could not be read, whatever the reason: it must not tell a
 * refused address from a closed port, an open port or a slow server.
 */
export const OUTBOUND_FETCH_FAILED = 'The URL could not be fetched.';
export const OUTBOUND_INVALID_URL = 'The URL is not valid.';
export const OUTBOUND_SCHEME = 'Only http and https URLs can be fetched.';
export const OUTBOUND_TOO_LARGE = (maxBytes: number) =>
  `The content of the URL is larger than the limit of ${maxBytes} bytes.`;

const MESSAGES: Record<OutboundFailure, (maxBytes: number) => string> = {
  INVALID_URL: () => OUTBOUND_INVALID_URL,
  SCHEME: () => OUTBOUND_SCHEME,
  ADDRESS_REFUSED: () => OUTBOUND_FETCH_FAILED,
  DNS: () => OUTBOUND_FETCH_FAILED,
  NETWORK: () => OUTBOUND_FETCH_FAILED,
  TIMEOUT: () => OUTBOUND_FETCH_FAILED,
  TOO_MANY_REDIRECTS: () => OUTBOUND_FETCH_FAILED,
  TOO_LARGE: OUTBOUND_TOO_LARGE,
};

/**
 * A refused or failed outbound request. `message` is safe to show (and only names a limit or the
 * accepted schemes); `detail` says what happened, with addresses and ports, for the server log only.
 */
export class OutboundError extends Error {
  constructor(
    readonly failure: OutboundFailure,
    readonly detail: string,
    readonly maxBytes = 0,
  ) {
    super(MESSAGES[failure](maxBytes));
    this.name = 'OutboundError';
  }
}
