import { Anchor, Button, Group, Skeleton, Stack, Tabs, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { useSession } from '../../../shared/session/current-user';
import { hasPermission } from '../../../shared/session/permissions';
import { notifySuccess } from '../../../shared/ui/notify';
import type { GroupEntity, GroupInput } from '../api/groups';
import { useGroup, useSaveGroup } from '../api/groups';
import { GroupActions } from './group-actions';
import { GroupDependents } from './group-dependents';
import { AssociationsSection, GeneralSection, RolesSection, nameProblem } from './group-form';
import { groupsBase } from './groups-page';

const toInput = (group: GroupEntity | undefined): GroupInput => ({
  name: group?.name ?? '',
  roles: group?.roles ?? {},
  event_rules: group?.event_rules ?? [],
  max_invitation: group?.max_invitation ?? null,
  lock_api_role: group?.lock_api_role ?? false,
  lock_application_role: group?.lock_application_role ?? false,
  system_invitation: group?.system_invitation ?? false,
  email_invitation: group?.email_invitation ?? false,
});

/**
 * management.settings.group (`/settings/groups/new`, `/settings/groups/{groupId}`): tabs General, Roles
 * and Members, Associations, Actions and Dependents (members, APIs, applications).
 */
export function GroupPage() {
  const { groupId } = useParams();
  const isNew = groupId === undefined || groupId === 'new';
  const loaded = useGroup(isNew ? undefined : groupId);
  if (!isNew && loaded.isPending) return <Skeleton height={420} />;
  if (!isNew && !loaded.data) return null;
  return <GroupScreen key={loaded.data?.id ?? 'new'} group={isNew ? undefined : loaded.data} />;
}

function GroupScreen({ group }: { group: GroupEntity | undefined }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useSession();
  const initial = toInput(group);
  const [value, setValue] = useState<GroupInput>(initial);
  const [touched, setTouched] = useState(false);
  const [tab, setTab] = useState<string>('general');
  const save = useSaveGroup(group?.id);
  const superAdmin = hasPermission(user, 'management-group-u');
  const readOnly = group ? !group.manageable : !hasPermission(user, 'management-group-c');
  const pristine = JSON.stringify(value) === JSON.stringify(initial);
  const problem = nameProblem(value.name);
  const nameError = touched && problem ? t(`settingsGroups.form.nameErrors.${problem}`) : undefined;
  const change = (patch: Partial<GroupInput>) => setValue((current) => ({ ...current, ...patch }));
  const props = { value, change, readOnly };

  const submit = () =>
    save.mutate(
      { ...value, name: value.name.trim() },
      {
        onSuccess: (saved) => {
          notifySuccess(group ? 'settingsGroups.form.updated' : 'settingsGroups.form.created', {
            name: saved.name,
          });
          if (!group) void navigate(`${groupsBase}/${saved.id}`, { replace: true });
        },
      },
    );

  const formTabs = ['general', 'roles', 'associations'];
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (!problem && !pristine && !readOnly) submit();
      }}
    >
      <Stack gap="lg">
        <Anchor component={Link} to={groupsBase} size="sm">
          <Group gap={4}>
            <IconArrowLeft size={14} />
            {t('settingsGroups.form.back')}
          </Group>
        </Anchor>
        <Title order={1} size="h2">
          {group ? group.name : t('settingsGroups.form.newTitle')}
        </Title>
        <Tabs value={tab} onChange={(next) => next && setTab(next)}>
          <Tabs.List>
            <Tabs.Tab value="general">{t('settingsGroups.tabs.general')}</Tabs.Tab>
            <Tabs.Tab value="roles">{t('settingsGroups.tabs.roles')}</Tabs.Tab>
            <Tabs.Tab value="associations">{t('settingsGroups.tabs.associations')}</Tabs.Tab>
            {group && <Tabs.Tab value="actions">{t('settingsGroups.tabs.actions')}</Tabs.Tab>}
            {group && <Tabs.Tab value="dependents">{t('settingsGroups.tabs.dependents')}</Tabs.Tab>}
          </Tabs.List>
          <Tabs.Panel value="general" pt="md">
            <GeneralSection {...props} nameError={nameError} onBlur={() => setTouched(true)} />
          </Tabs.Panel>
          <Tabs.Panel value="roles" pt="md">
            <RolesSection {...props} superAdmin={superAdmin} />
          </Tabs.Panel>
          <Tabs.Panel value="associations" pt="md">
            <AssociationsSection {...props} />
          </Tabs.Panel>
          {group && (
            <Tabs.Panel value="actions" pt="md">
              <GroupActions group={group} />
            </Tabs.Panel>
          )}
          {group && (
            <Tabs.Panel value="dependents" pt="md">
              <GroupDependents group={group} />
            </Tabs.Panel>
          )}
        </Tabs>
        {!readOnly && formTabs.includes(tab) && (
          <Group>
            <Button type="submit" disabled={!!problem || pristine} loading={save.isPending}>
              {group ? t('common.save') : t('settingsGroups.form.create')}
            </Button>
            <Button variant="default" disabled={pristine} onClick={() => setValue(initial)}>
              {t('common.reset')}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
