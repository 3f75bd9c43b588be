import { ActionIcon, Stack, Tooltip, UnstyledButton } from '@mantine/core';
import {
  IconApi,
  IconApps,
  IconChartBar,
  IconLayoutSidebarLeftCollapse,
  IconLayoutSidebarLeftExpand,
  IconMail,
  IconServer,
  IconSettings,
  IconShieldCheck,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { useConfig } from '../../shared/config/config-context';
import { useSession } from '../../shared/session/current-user';
import type { ConsoleMenuIcon } from './console-menu';
import { visibleMenu } from './console-menu';
import classes from './side-menu.module.css';

const ICONS: Record<ConsoleMenuIcon, ComponentType<{ size?: number; stroke?: number }>> = {
  apis: IconApi,
  applications: IconApps,
  gateways: IconServer,
  dashboard: IconChartBar,
  audit: IconShieldCheck,
  messages: IconMail,
  settings: IconSettings,
};

/** The console side menu: the entries the user may see; reduced to icons when asked (remembered). */
export function SideMenu({
  reduced,
  onToggleReduced,
  onNavigate,
}: {
  reduced: boolean;
  onToggleReduced: () => void;
  onNavigate: () => void;
}) {
  const { t } = useTranslation();
  const { user } = useSession();
  const config = useConfig();
  const entries = visibleMenu(user, undefined, undefined, config.portal.devMode.enabled);
  const toggleLabel = reduced ? t('console.menu.expand') : t('console.menu.reduce');

  return (
    <Stack justify="space-between" h="100%" p="sm" gap="sm">
      <nav aria-label={t('console.menu.label')}>
        <Stack gap={4} component="ul" className={classes.list}>
          {entries.map((entry) => {
            const Icon = ICONS[entry.icon];
            const label = t(entry.label);
            const link = (
              <NavLink
                to={entry.path}
                className={classes.link}
                data-reduced={reduced || undefined}
                aria-label={reduced ? label : undefined}
                onClick={onNavigate}
              >
                <Icon size={20} stroke={1.6} />
                {!reduced && <span>{label}</span>}
              </NavLink>
            );
            return (
              <li key={entry.path}>
                {reduced ? (
                  <Tooltip label={label} position="right">
                    {link}
                  </Tooltip>
                ) : (
                  link
                )}
              </li>
            );
          })}
        </Stack>
      </nav>
      <Tooltip label={toggleLabel} position="right" disabled={!reduced}>
        {reduced ? (
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            onClick={onToggleReduced}
            aria-label={toggleLabel}
            visibleFrom="sm"
          >
            <IconLayoutSidebarLeftExpand size={20} stroke={1.6} />
          </ActionIcon>
        ) : (
          <UnstyledButton className={classes.toggle} onClick={onToggleReduced} visibleFrom="sm">
            <IconLayoutSidebarLeftCollapse size={20} stroke={1.6} />
            <span>{toggleLabel}</span>
          </UnstyledButton>
        )}
      </Tooltip>
    </Stack>
  );
}
