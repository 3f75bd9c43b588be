import { Avatar, Group, Indicator, Menu, Text, UnstyledButton } from '@mantine/core';
import {
  IconApps,
  IconChecklist,
  IconLanguage,
  IconLayoutDashboard,
  IconLogout,
  IconUser,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useTaskCount } from '../../features/user-tasks/api/get-task-count';
import { NotificationsMenu } from '../../features/user-notifications/components/notifications-menu';
import { useConfig } from '../../shared/config/config-context';
import { LANGUAGES, isLanguage, setLanguage } from '../../shared/i18n/i18n';
import { ownAvatarUrl, useSession } from '../../shared/session/current-user';
import { isAdmin } from '../../shared/session/permissions';
import { signOut } from '../../shared/session/session-actions';
import { isAvailable } from '../screens';
import classes from './user-area.module.css';

/** Notifications and the user menu of a signed-in user (loaded on demand). */
export function UserArea() {
  return (
    <Group gap="xs" wrap="nowrap">
      <NotificationsMenu />
      <UserMenu />
    </Group>
  );
}

/**
 * The user menu: profile, tasks (with their count), applications, management (administrators) or
 * APIs (others), the language, and logout. The avatar carries a badge while tasks wait.
 */
function UserMenu() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const config = useConfig();
  const { user } = useSession();
  const taskCount = useTaskCount(!!user);
  if (!user) return null;
  const admin = isAdmin(user);
  // In developer-portal-only mode the console is for administrators only.
  const showConsole = admin || !config.portal.devMode.enabled;

  // Portal home first, so that no guard of the current page reacts to the ended session (RootLayout
  // holds the page being left back until portal home has rendered).
  const logout = async () => {
    await navigate('/');
    const { providerLogoutUrl } = await signOut();
    if (providerLogoutUrl) window.location.assign(providerLogoutUrl);
  };

  return (
    <Menu position="bottom-end" width={260} shadow="md" withArrow>
      <Menu.Target>
        <UnstyledButton
          className={classes.target}
          aria-label={t('shell.userMenu.open', { name: user.displayName })}
        >
          <Indicator
            disabled={taskCount === 0}
            label={taskCount}
            size={16}
            color="red"
            offset={4}
            maxValue={99}
            aria-label={t('shell.userMenu.tasksWaiting', { total: taskCount })}
          >
            <Avatar
              src={ownAvatarUrl(user.updated_at)}
              alt={user.displayName}
              radius="xl"
              size={36}
              color="initials"
              name={user.displayName}
            />
          </Indicator>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <div className={classes.identity}>
          <Text fw={600} size="sm" truncate>
            {user.displayName}
          </Text>
          {user.email && (
            <Text size="xs" c="dimmed" truncate>
              {user.email}
            </Text>
          )}
        </div>
        <Menu.Divider />
        <Menu.Item component={Link} to="/user" leftSection={<IconUser size={16} />}>
          {t('shell.userMenu.profile')}
        </Menu.Item>
        {isAvailable('management.tasks') && (
          <Menu.Item
            component={Link}
            to="/management/tasks"
            leftSection={<IconChecklist size={16} />}
            rightSection={taskCount > 0 ? <span className={classes.count}>{taskCount}</span> : null}
          >
            {t('shell.userMenu.tasks')}
          </Menu.Item>
        )}
        {isAvailable('management.applications') && (
          <Menu.Item component={Link} to="/management/applications" leftSection={<IconApps size={16} />}>
            {t('shell.userMenu.applications')}
          </Menu.Item>
        )}
        {showConsole && (
          <Menu.Item component={Link} to="/management" leftSection={<IconLayoutDashboard size={16} />}>
            {admin ? t('shell.userMenu.management') : t('shell.userMenu.apis')}
          </Menu.Item>
        )}
        <Menu.Divider />
        <Menu.Sub position="left-start">
          <Menu.Sub.Target>
            <Menu.Sub.Item leftSection={<IconLanguage size={16} />}>{t('language.label')}</Menu.Sub.Item>
          </Menu.Sub.Target>
          <Menu.Sub.Dropdown>
            <Menu.RadioGroup
              value={i18n.resolvedLanguage ?? i18n.language}
              onChange={(value) => {
                if (isLanguage(value)) void setLanguage(value);
              }}
            >
              {LANGUAGES.map((language) => (
                <Menu.RadioItem key={language} value={language} lang={language} closeMenuOnClick>
                  {t(`language.names.${language}`)}
                </Menu.RadioItem>
              ))}
            </Menu.RadioGroup>
          </Menu.Sub.Dropdown>
        </Menu.Sub>
        <Menu.Divider />
        <Menu.Item color="red" leftSection={<IconLogout size={16} />} onClick={() => void logout()}>
          {t('shell.userMenu.logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
