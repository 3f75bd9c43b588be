import { AppShell, Burger, ScrollArea } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Outlet, ScrollRestoration, useMatches } from 'react-router';
import { useReloadKey } from '../../shared/lib/page-state';
import { StorageKeys } from '../../shared/lib/storage';
import { useStoredPreference } from '../../shared/lib/use-stored-preference';
import { mergeAccess } from '../../shared/session/access';
import type { RouteAccess } from '../../shared/session/access';
import { MAIN_CONTENT_ID, SkipLink } from '../../shared/ui/skip-link';
import { useTranslation } from 'react-i18next';
import { ContextualHelpButton, useContextualDocVisible } from '../shell/contextual-help-button';
import { TopBar } from '../shell/top-bar';
import { ContextualDoc } from './contextual-doc';
import { SideMenu } from './side-menu';

export const SIDEBAR_WIDTH = 240;
export const SIDEBAR_REDUCED_WIDTH = 72;
export const DOC_PANEL_WIDTH = 360;

/**
 * The console face: top bar, side menu (reducible, remembered), the page, and the contextual
 * documentation of the page (open by default, remembered).
 */
export function ConsoleLayout() {
  const { t } = useTranslation();
  const matches = useMatches();
  const reloadKey = useReloadKey();
  const [mobileOpened, mobileMenu] = useDisclosure(false);
  const [reduced, setReduced] = useStoredPreference<boolean>(StorageKeys.sidebarReduced, false);
  const [docVisible, setDocVisible] = useContextualDocVisible();
  const { docPage } = mergeAccess(matches.map((match) => match.handle as RouteAccess | undefined));
  const showDoc = docVisible && !!docPage;

  return (
    <AppShell
      header={{ height: 64 }}
      navbar={{
        width: reduced ? SIDEBAR_REDUCED_WIDTH : SIDEBAR_WIDTH,
        breakpoint: 'sm',
        collapsed: { mobile: !mobileOpened },
      }}
      aside={{ width: DOC_PANEL_WIDTH, breakpoint: 'md', collapsed: { desktop: !showDoc, mobile: true } }}
      padding="lg"
    >
      <SkipLink />
      <AppShell.Header>
        <TopBar
          actions={<ContextualHelpButton />}
          leftSection={
            <Burger
              opened={mobileOpened}
              onClick={mobileMenu.toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={t('console.menu.toggle')}
            />
          }
        />
      </AppShell.Header>
      <AppShell.Navbar aria-label={t('console.menu.label')}>
        <SideMenu
          reduced={reduced}
          onToggleReduced={() => setReduced(!reduced)}
          onNavigate={mobileMenu.close}
        />
      </AppShell.Navbar>
      <AppShell.Main id={MAIN_CONTENT_ID} tabIndex={-1} style={{ outline: 'none' }}>
        <Outlet key={reloadKey} />
      </AppShell.Main>
      {docPage && (
        <AppShell.Aside aria-label={t('console.doc.label')}>
          <ScrollArea h="100%">
            {showDoc && <ContextualDoc page={docPage} onClose={() => setDocVisible(false)} />}
          </ScrollArea>
        </AppShell.Aside>
      )}
      <ScrollRestoration />
    </AppShell>
  );
}
