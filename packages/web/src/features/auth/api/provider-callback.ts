import type { LoaderFunctionArgs } from 'react-router';
import { redirect } from 'react-router';
import { isHttpError } from '../../../shared/http';
import {
  exchangeProviderCode,
  providerRedirectUri,
  takePendingProviderLogin,
} from '../../../shared/session/identity-providers';
import { isAppPath } from '../../../shared/session/redirects';
import { sessionOpened } from '../../../shared/session/session-actions';

export type ProviderCallbackResult = { error: 'state' } | { error: 'exchange'; text: string } | null;

/**
 * The login route's loader: when an identity provider sends the user back with `code` and `state`,
 * exchanges the code for a session (`POST auth/oauth2/{providerId}`) and goes to the stored redirect.
 */
export async function providerCallbackLoader({
  request,
}: LoaderFunctionArgs): Promise<ProviderCallbackResult | Response> {
  const url = new URL(request.url);
  const code = url.searchParams.get('code');
  if (!code) return null;
  const pending = takePendingProviderLogin(url.searchParams.get('state'));
  if (!pending) return { error: 'state' };
  try {
    await exchangeProviderCode(pending, code, providerRedirectUri(url.origin));
    await sessionOpened();
  } catch (error) {
    return { error: 'exchange', text: isHttpError(error) ? error.text : '' };
  }
  return redirect(isAppPath(pending.redirect) ? pending.redirect : '/');
}
