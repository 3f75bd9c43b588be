import { Anchor, Button, Group, Image, Skeleton } from '@mantine/core';
import type { ReactNode } from 'react';
import { Suspense, lazy, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';
import { appUrl } from '../../shared/config/config';
import { useConfig } from '../../shared/config/config-context';
import type { TranslationKey } from '../../shared/i18n/keys';
import { useSession } from '../../shared/session/current-user';
import { startProviderLogin, useIdentityProviders } from '../../shared/session/identity-providers';
import { recordLastRoute } from '../../shared/session/redirects';
import type { Screen } from '../screens';
import { isAvailable } from '../screens';
import classes from './top-bar.module.css';

// Signed-in parts load on demand: the signed-out first page stays small.
const UserArea = lazy(async () => ({ default: (await import('./user-area')).UserArea }));

interface TopLink {
  screen: Screen;
  to: string;
  label: TranslationKey;
  when?: (config: ReturnType<typeof useConfig>) => boolean;
}

/** The top bar links: API gallery, documentation, and support when it is enabled. */
const TOP_LINKS: readonly TopLink[] = [
  { screen: 'portal.apis', to: '/apis', label: 'shell.nav.apis' },
  { screen: 'portal.pages', to: '/pages', label: 'shell.nav.documentation' },
  { screen: 'support', to: '/support', label: 'shell.nav.support', when: (c) => c.portal.support.enabled },
];

/**
 * The top bar of both faces: logo, links, the face's own actions (the console's contextual help),
 * notifications and the user menu, or the login button.
 */
export function TopBar({ leftSection, actions }: { leftSection?: ReactNode; actions?: ReactNode }) {
  const { t } = useTranslation();
  const config = useConfig();
  const { user } = useSession();
  const links = TOP_LINKS.filter((link) => isAvailable(link.screen) && (link.when?.(config) ?? true));

  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap" className={classes.bar}>
      <Group gap="lg" wrap="nowrap">
        {leftSection}
        {/* The console brings its own menu button (its side navigation) as leftSection. */}
        {!leftSection && links.length > 0 && <PhoneMenu links={links} />}
        <Anchor component={Link} to="/" className={classes.logo} aria-label={t('shell.home')}>
          <Image src={appUrl(config.theme.logo)} alt={config.company.name} h={32} w="auto" fit="contain" />
        </Anchor>
        {links.length > 0 && (
          <Group component="nav" aria-label={t('shell.mainNavigation')} gap={4} visibleFrom="sm">
            {links.map((link) => (
              <NavLink key={link.to} to={link.to} className={classes.link}>
                {t(link.label)}
              </NavLink>
            ))}
          </Group>
        )}
      </Group>
      <Group gap="xs" wrap="nowrap">
        {actions}
        {user ? (
          <Suspense fallback={<Skeleton circle h={36} w={36} />}>
            <UserArea />
          </Suspense>
        ) : (
          <LoginButton />
        )}
      </Group>
    </Group>
  );
}

/**
 * The top bar links on a phone (narrower than the `sm` breakpoint, where the row of links is hidden):
 * a native disclosure (no script weight in the first load) opened by Enter or Space, closed by
 * Escape or by following a link.
 */
function PhoneMenu({ links }: { links: readonly TopLink[] }) {
  const { t } = useTranslation();
  const menu = useRef<HTMLDetailsElement>(null);
  const close = () => menu.current?.removeAttribute('open');
  return (
    <details
      ref={menu}
      className={classes.phoneMenu}
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || !menu.current?.open) return;
        close();
        menu.current.querySelector('summary')?.focus();
      }}
    >
      <summary className={classes.burger} aria-label={t('shell.mainNavigation')}>
        <span aria-hidden="true" />
      </summary>
      <nav aria-label={t('shell.mainNavigation')} className={classes.phonePanel}>
        {links.map((link) => (
          <NavLink key={link.to} to={link.to} className={classes.link} onClick={close}>
            {t(link.label)}
          </NavLink>
        ))}
      </nav>
    </details>
  );
}

/**
 * Login for visitors: straight to the identity provider when local login is disabled and exactly one
 * provider exists, otherwise the login page. The current route is recorded to come back to it.
 */
function LoginButton() {
  const { t } = useTranslation();
  const config = useConfig();
  const location = useLocation();
  const navigate = useNavigate();
  const localLogin = config.authentication.localLogin.enabled;
  const { providers } = useIdentityProviders(!localLogin);
  if (location.pathname === '/login') return null;
  return (
    <Button
      onClick={() => {
        const path = location.pathname + location.search;
        recordLastRoute(path);
        if (!localLogin && providers.length === 1 && startProviderLogin(providers[0]!, path)) return;
        void navigate('/login');
      }}
    >
      {t('shell.login')}
    </Button>
  );
}
