import { Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { NavLink, Navigate, Outlet } from 'react-router';
import { useSession } from '../../../shared/session/current-user';
import classes from '../api-frame.module.css';
import { SETTINGS_GROUP_LABELS, SETTINGS_GROUPS, visibleSettings } from './settings-menu';

export const SETTINGS_BASE = '/management/settings';

/** The settings area: its menu, by group (Portal, Gateway, User Management, Notifications), and the page. */
export function SettingsFrame() {
  const { t } = useTranslation();
  const { user } = useSession();
  const entries = visibleSettings(user);

  return (
    <Stack gap="md" className={classes.frame}>
      <Title order={1} size="h2">
        {t('settings.title')}
      </Title>
      <div className={classes.layout}>
        <nav aria-label={t('settings.menu.label')} className={classes.nav}>
          {SETTINGS_GROUPS.map((group) => {
            const items = entries.filter((entry) => entry.group === group);
            if (items.length === 0) return null;
            return (
              <div key={group}>
                <Text
                  component="h2"
                  size="xs"
                  fw={700}
                  tt="uppercase"
                  c="dimmed"
                  px={12}
                  mb={4}
                  className={classes.section}
                  id={`settings-group-${group}`}
                >
                  {t(SETTINGS_GROUP_LABELS[group])}
                </Text>
                <ul className={classes.list} aria-labelledby={`settings-group-${group}`}>
                  {items.map((entry) => (
                    <li key={entry.path}>
                      <NavLink to={`${SETTINGS_BASE}/${entry.path}`} className={classes.link}>
                        {t(entry.label)}
                      </NavLink>
                    </li>
                  ))}
                </ul>
              </div>
            );
          })}
        </nav>
        <div>
          <Outlet />
        </div>
      </div>
    </Stack>
  );
}

/** `/management/settings`: the first entry the user may see, or the API list when there is none. */
export function SettingsHome() {
  const { user } = useSession();
  const first = visibleSettings(user)[0];
  return <Navigate to={first ? `${SETTINGS_BASE}/${first.path}` : '/management'} replace />;
}
