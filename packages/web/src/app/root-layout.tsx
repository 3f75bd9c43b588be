import { Outlet, Navigate, useLocation, useMatches } from 'react-router';
import { useConfig } from '../shared/config/config-context';
import { useEffect } from 'react';
import { signingOut, useSigningOut, useUnavailable } from '../shared/lib/page-state';
import { accessRedirect, mergeAccess } from '../shared/session/access';
import type { RouteAccess } from '../shared/session/access';
import { useSession } from '../shared/session/current-user';
import { loginTarget, readLastRoute } from '../shared/session/redirects';
import { PageLoader } from '../shared/ui/page-loader';
import { UnavailablePage } from '../shared/ui/unavailable-page';
import { NavigationProgress } from '../shared/ui/navigation-progress';

/**
 * The root of both faces: waits for the session, applies the route guards (permissions, forced
 * login, developer-portal-only mode, user creation, signed-in users on login and registration), and
 * shows the 503 page instead of the body when the server said it is unavailable.
 */
export function RootLayout() {
  const config = useConfig();
  const session = useSession();
  const matches = useMatches();
  const location = useLocation();
  const unavailable = useUnavailable();
  const leaving = useSigningOut();
  const home = location.pathname === '/';
  useEffect(() => {
    if (leaving && home) signingOut.set(false);
  }, [leaving, home]);

  if (unavailable) return <UnavailablePage text={unavailable.text} />;
  // Signing out: the router renders a navigation in a transition, which a busy browser may not have
  // committed when the session ends. The page being left must not see the ended session (its guard
  // would send the user to login); it makes way for portal home.
  if (leaving && !home) return <Navigate to="/" replace />;
  if (session.isPending) return <PageLoader />;

  const access = mergeAccess(matches.map((match) => match.handle as RouteAccess | undefined));
  const signedInTarget =
    location.pathname === '/login'
      ? loginTarget(new URLSearchParams(location.search).get('redirectUri'), readLastRoute())
      : '/';
  const redirect = accessRedirect(
    access,
    session.user,
    config,
    location.pathname + location.search,
    signedInTarget,
  );
  if (redirect) return <Navigate to={redirect} replace />;
  return (
    <>
      <NavigationProgress />
      <Outlet />
    </>
  );
}
