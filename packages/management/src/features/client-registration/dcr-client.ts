import type { OutboundPolicy } from '@portico/outbound';
import { OutboundError, outboundFetch } from '@portico/outbound';
import { DomainError } from '@portico/model';

/** What the person sees when the provider cannot be used; the details go to the log. */
export const PROVIDER_UNUSABLE =
  'The client registration provider could not be reached or refused the request.';
export const providerUnusable = () => new DomainError(400, PROVIDER_UNUSABLE, 'CLIENT_REGISTRATION_FAILED');

const TIMEOUT_MS = 10_000;
const MAX_BYTES = 1024 * 1024;

export interface DcrLog {
  warn(obj: object, msg: string): void;
}

/** Where and how to reach a provider: its discovery document and the client that asks for access tokens. */
export interface DcrProvider {
  discovery_endpoint: string;
  client_id: string;
  client_secret: string;
  scopes: string[];
}

/** A registered client as RFC 7591 answers it (client metadata plus credentials). */
export interface RegisteredClient {
  client_id: string;
  client_secret?: string;
  registration_access_token?: string;
  registration_client_uri?: string;
  [metadata: string]: unknown;
}

/**
 * OpenID Connect Dynamic Client Registration (RFC 7591) and its management (RFC 7592), every request
 * through the outbound-URL guard: discovery gives the registration and token endpoints, the provider's
 * own client credentials give the initial access token (client_credentials grant), and the registration
 * access token of each registered client updates or deletes it.
 */
export class DcrClient {
  constructor(
    private readonly policy: OutboundPolicy,
    private readonly log: DcrLog,
  ) {}

  private async json(
    step: string,
    url: string,
    init: { method?: 'GET' | 'POST' | 'PUT' | 'DELETE'; headers?: Record<string, string>; body?: string },
  ): Promise<Record<string, unknown>> {
    let status: number;
    let text: string;
    try {
      const res = await outboundFetch(url, {
        policy: this.policy,
        timeoutMs: TIMEOUT_MS,
        maxBytes: MAX_BYTES,
        maxRedirects: 0,
        accept: 'application/json',
        method: init.method ?? 'GET',
        headers: init.headers,
        body: init.body,
      });
      status = res.status;
      text = res.text();
    } catch (error) {
      if (!(error instanceof OutboundError)) throw error;
      this.log.warn(
        { step, url, failure: error.failure, detail: error.detail },
        'client registration: request failed',
      );
      throw providerUnusable();
    }
    if (status < 200 || status > 299) {
      this.log.warn({ step, url, status, body: text.slice(0, 500) }, 'client registration: error status');
      throw providerUnusable();
    }
    if (status === 204 || text.trim() === '') return {};
    try {
      const body = JSON.parse(text) as unknown;
      if (body !== null && typeof body === 'object' && !Array.isArray(body))
        return body as Record<string, unknown>;
    } catch {
      // reported below
    }
    this.log.warn({ step, url, status }, 'client registration: not a JSON object');
    throw providerUnusable();
  }

  /** The registration and token endpoints of the provider's discovery document. */
  async discover(provider: DcrProvider): Promise<{ registrationEndpoint: string; tokenEndpoint: string }> {
    const doc = await this.json('discovery', provider.discovery_endpoint, {});
    const registrationEndpoint = doc.registration_endpoint;
    const tokenEndpoint = doc.token_endpoint;
    if (typeof registrationEndpoint !== 'string' || typeof tokenEndpoint !== 'string') {
      this.log.warn(
        { url: provider.discovery_endpoint },
        'client registration: no registration or token endpoint',
      );
      throw providerUnusable();
    }
    return { registrationEndpoint, tokenEndpoint };
  }

  /** An initial access token from the provider's client credentials (client_credentials grant). */
  async initialAccessToken(provider: DcrProvider, tokenEndpoint: string): Promise<string> {
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    if (provider.scopes.length > 0) form.set('scope', provider.scopes.join(' '));
    const basic = Buffer.from(
      `${encodeURIComponent(provider.client_id)}:${encodeURIComponent(provider.client_secret)}`,
    ).toString('base64');
    const body = await this.json('token', tokenEndpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
      body: form.toString(),
    });
    if (typeof body.access_token !== 'string') {
      this.log.warn({ url: tokenEndpoint }, 'client registration: no access token');
      throw providerUnusable();
    }
    return body.access_token;
  }

  /** Checks that the provider can be used: discovery answers and the client credentials get a token. */
  async check(provider: DcrProvider): Promise<void> {
    const { tokenEndpoint } = await this.discover(provider);
    await this.initialAccessToken(provider, tokenEndpoint);
  }

  /** RFC 7591: registers a client with the metadata. */
  async register(provider: DcrProvider, metadata: Record<string, unknown>): Promise<RegisteredClient> {
    const { registrationEndpoint, tokenEndpoint } = await this.discover(provider);
    const token = await this.initialAccessToken(provider, tokenEndpoint);
    const body = await this.json('register', registrationEndpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(metadata),
    });
    if (typeof body.client_id !== 'string') {
      this.log.warn({ url: registrationEndpoint }, 'client registration: no client_id');
      throw providerUnusable();
    }
    return body as RegisteredClient;
  }

  /** RFC 7592: replaces the client's metadata; the provider may answer new credentials. */
  async update(
    clientUri: string,
    accessToken: string,
    metadata: Record<string, unknown>,
  ): Promise<RegisteredClient> {
    const body = await this.json('update', clientUri, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
      body: JSON.stringify(metadata),
    });
    return body as RegisteredClient;
  }

  /** RFC 7592: deletes the client at the provider. */
  async delete(clientUri: string, accessToken: string): Promise<void> {
    await this.json('delete', clientUri, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${accessToken}` },
    });
  }
}
