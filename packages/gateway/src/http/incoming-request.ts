import type { GatewayRequest } from '../policies/policy.js';

/**
 * The request as policies see it. The query string is parsed only when something reads it, and sent
 * to the backend exactly as the client wrote it unless a policy changed it.
 */
export class IncomingRequest implements GatewayRequest {
  private parsed: URLSearchParams | undefined;
  private parsedAs: string | undefined;

  constructor(
    readonly id: string,
    readonly transactionId: string,
    public method: string,
    readonly originalPath: string,
    public pathInfo: string,
    private readonly rawQuery: string,
    public headers: Record<string, string | string[] | undefined>,
    readonly remoteAddress: string,
    readonly host: string,
    readonly timestamp: number,
  ) {}

  get query(): URLSearchParams {
    if (!this.parsed) {
      this.parsed = new URLSearchParams(this.rawQuery);
      this.parsedAs = this.parsed.toString();
    }
    return this.parsed;
  }

  set query(query: URLSearchParams) {
    this.parsed = query;
    this.parsedAs = undefined;
  }

  /** The query string to send on (without `?`). */
  queryString(): string {
    if (!this.parsed) return this.rawQuery;
    const now = this.parsed.toString();
    return now === this.parsedAs ? this.rawQuery : now;
  }
}

function decodedName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

/**
 * The query string without the parameters named `name` (an API key, say); the others stay as the
 * client wrote them, in their order.
 */
export function withoutQueryParam(query: string, name: string): string {
  if (query === '' || (!query.includes(name) && !query.includes('%'))) return query;
  const parts = query.split('&');
  const kept = parts.filter((part) => {
    const eq = part.indexOf('=');
    return decodedName(eq < 0 ? part : part.slice(0, eq)) !== name;
  });
  return kept.length === parts.length ? query : kept.join('&');
}
