import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import type { Configuration } from 'oidc-provider';

export const OIDC_REDIRECT_URI = 'http://localhost:8084/login';

export interface TestOidcServer {
  issuer: string;
  provider: Provider;
  close(): Promise<void>;
}

/**
 * A real OpenID provider (oidc-provider) on a free port of 127.0.0.1, with its development login
 * screen: any login and password sign in, the account's claims are `claims(login)`.
 */
export async function startOidcServer(
  options: {
    claims?: (login: string) => Record<string, unknown>;
    configuration?: Configuration;
    /** Runs before the provider on each request; answering there stops it. */
    gate?: (req: http.IncomingMessage, res: http.ServerResponse, provider: Provider) => Promise<boolean>;
  } = {},
): Promise<TestOidcServer> {
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const claims =
    options.claims ??
    ((login: string) => ({
      email: `${login}@example.test`,
      given_name: 'Ada',
      family_name: login.toUpperCase(),
    }));
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'portal',
        client_secret: 'portal-secret',
        redirect_uris: [OIDC_REDIRECT_URI],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: {
      openid: ['sub'],
      email: ['email'],
      profile: ['given_name', 'family_name', 'picture', 'groups'],
    },
    findAccount: async (_ctx, sub) => ({
      accountId: sub,
      claims: async () => ({ sub, ...claims(sub) }),
    }),
    pkce: { required: () => false },
    ...options.configuration,
  });
  const callback = provider.callback();
  server.on('request', (req, res) => {
    void (async () => {
      if (options.gate && (await options.gate(req, res, provider))) return;
      callback(req, res);
    })();
  });
  return {
    issuer,
    provider,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

/** Drives the authorization code flow like a browser (login and consent screens), returns the code. */
export async function authorizeAt(
  issuer: string,
  login: string,
  nonce: string,
  state = 'st-1',
  scope = 'openid email profile',
): Promise<string> {
  const cookies = new Map<string, string>();
  const jar = () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const [k, ...v] = pair!.split('=');
      cookies.set(k!, v.join('='));
    }
  };
  const params = new URLSearchParams({
    client_id: 'portal',
    response_type: 'code',
    scope,
    redirect_uri: OIDC_REDIRECT_URI,
    state,
    nonce,
  });
  let url = `${issuer}/auth?${params}`;
  let method = 'GET';
  let body: URLSearchParams | undefined;
  for (let hop = 0; hop < 20; hop++) {
    const res = await fetch(url, { method, body, redirect: 'manual', headers: { cookie: jar() } });
    keep(res);
    const location = res.headers.get('location');
    if (location?.startsWith(OIDC_REDIRECT_URI)) {
      const code = new URL(location).searchParams.get('code');
      if (!code) throw new Error(`no code: ${location}`);
      return code;
    }
    if (location) {
      url = new URL(location, url).toString();
      method = 'GET';
      body = undefined;
      continue;
    }
    const html = await res.text();
    const action = /action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`unexpected page: ${html.slice(0, 300)}`);
    url = new URL(action, url).toString();
    method = 'POST';
    body = html.includes('name="login"')
      ? new URLSearchParams({ prompt: 'login', login, password: 'anything' })
      : new URLSearchParams({ prompt: 'consent' });
  }
  throw new Error('too many hops');
}
