import { Outlet, ScrollRestoration, useMatches } from 'react-router';
import { useConfig } from '../../shared/config/config-context';
import { useReloadKey } from '../../shared/lib/page-state';
import { mergeAccess } from '../../shared/session/access';
import type { RouteAccess } from '../../shared/session/access';
import { MAIN_CONTENT_ID, SkipLink } from '../../shared/ui/skip-link';
import { TopBar } from '../shell/top-bar';
import { Footer } from './footer';
import classes from './portal-layout.module.css';

/** The portal face: top bar (hidden on the account pages while forced login is on), page, footer. */
export function PortalLayout() {
  const config = useConfig();
  const matches = useMatches();
  const reloadKey = useReloadKey();
  const access = mergeAccess(matches.map((match) => match.handle as RouteAccess | undefined));
  const hideTopBar = config.authentication.forceLogin.enabled && access.hideTopBarWhenForcedLogin;
  return (
    <div className={classes.page}>
      <SkipLink />
      {!hideTopBar && (
        <header className={classes.header}>
          <TopBar />
        </header>
      )}
      <main id={MAIN_CONTENT_ID} className={classes.main} tabIndex={-1}>
        <Outlet key={reloadKey} />
      </main>
      <Footer />
      <ScrollRestoration />
    </div>
  );
}
