import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { clientIdOf, curlWithKey, curlWithToken, needsClientId } from './samples';

/** What a POSIX shell makes of the command: its words, as `sh -c` splits and unquotes them. */
const words = (command: string) =>
  new Promise<string[]>((resolve, reject) =>
    execFile('sh', ['-c', `printf '%s\\n' ${command.replace(/^curl /, '')}`], (error, out) =>
      error ? reject(error) : resolve(out.trimEnd().split('\n')),
    ),
  );

describe('subscription samples', () => {
  it('quotes the entrypoint and the key header so that a shell passes them to curl unchanged', async () => {
    const command = curlWithKey("https://gw.example/shop?a=1&b='x'", 'X-Api-Key', 'k3y$HOME');
    expect(await words(command)).toEqual([
      '-X',
      'GET',
      "https://gw.example/shop?a=1&b='x'",
      '-H',
      'X-Api-Key: k3y$HOME',
    ]);
    expect(await words(curlWithToken('https://gw.example/shop'))).toEqual([
      '-X',
      'GET',
      'https://gw.example/shop',
      '-H',
      'Authorization: Bearer YOUR_ACCESS_TOKEN',
    ]);
  });

  it('finds the client id of simple and OAuth applications, and asks one for OAuth2 and JWT plans only', () => {
    expect(clientIdOf({ settings: { app: { type: null, client_id: 'abc' } } })).toBe('abc');
    expect(clientIdOf({ settings: { app: { type: null, client_id: null } } })).toBeNull();
    expect(
      clientIdOf({
        settings: {
          oauth: {
            client_id: 'oid',
            client_secret: 's',
            application_type: 'web',
            grant_types: [],
            redirect_uris: [],
            response_types: [],
          },
        },
      }),
    ).toBe('oid');
    expect(['API_KEY', 'KEY_LESS', 'OAUTH2', 'JWT'].filter((s) => needsClientId(s as never))).toEqual([
      'OAUTH2',
      'JWT',
    ]);
  });
});
