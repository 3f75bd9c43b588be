import { Checkbox, NumberInput, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { GroupEvent, GroupInput } from '../api/groups';
import { GROUP_EVENTS, MAX_MEMBERS, useGivableRoles } from '../api/groups';

export const NAME_MAX = 50;

/** The message of an invalid name (console-applications-and-settings.md 5), or undefined. */
export function nameProblem(name: string): 'required' | 'tooLong' | undefined {
  if (!name.trim()) return 'required';
  if (name.trim().length > NAME_MAX) return 'tooLong';
  return undefined;
}

interface SectionProps {
  value: GroupInput;
  change: (patch: Partial<GroupInput>) => void;
  readOnly: boolean;
}

/** General tab: the name. */
export function GeneralSection({
  value,
  change,
  readOnly,
  nameError,
  onBlur,
}: SectionProps & {
  nameError?: string;
  onBlur: () => void;
}) {
  const { t } = useTranslation();
  return (
    <TextInput
      label={t('settingsGroups.form.name')}
      required
      value={value.name}
      readOnly={readOnly}
      error={nameError}
      onBlur={onBlur}
      onChange={(event) => change({ name: event.currentTarget.value })}
      maw={480}
    />
  );
}

/**
 * Roles tab: default API and application roles of the members; the super admin (management-group-u)
 * also sets the role locks, the max members and the invitation options. A locked role is read-only for
 * group admins.
 */
export function RolesSection({
  value,
  change,
  readOnly,
  superAdmin,
}: SectionProps & { superAdmin: boolean }) {
  const { t } = useTranslation();
  const apiRoles = useGivableRoles('API');
  const applicationRoles = useGivableRoles('APPLICATION');
  const options = (roles: { name: string }[] | undefined) => (roles ?? []).map((r) => r.name);
  return (
    <Stack gap="md" maw={480}>
      <Select
        label={t('settingsGroups.form.apiRole')}
        data={options(apiRoles.data)}
        value={value.roles.API ?? null}
        clearable
        clearButtonProps={{ 'aria-label': t('settingsGroups.form.clearRole') }}
        disabled={readOnly || (!superAdmin && value.lock_api_role)}
        onChange={(role) => change({ roles: { ...value.roles, API: role ?? undefined } })}
      />
      <Select
        label={t('settingsGroups.form.applicationRole')}
        data={options(applicationRoles.data)}
        value={value.roles.APPLICATION ?? null}
        clearable
        clearButtonProps={{ 'aria-label': t('settingsGroups.form.clearRole') }}
        disabled={readOnly || (!superAdmin && value.lock_application_role)}
        onChange={(role) => change({ roles: { ...value.roles, APPLICATION: role ?? undefined } })}
      />
      {superAdmin && (
        <>
          <Switch
            label={t('settingsGroups.form.lockApiRole')}
            checked={value.lock_api_role}
            disabled={readOnly}
            onChange={(event) => change({ lock_api_role: event.currentTarget.checked })}
          />
          <Switch
            label={t('settingsGroups.form.lockApplicationRole')}
            checked={value.lock_application_role}
            disabled={readOnly}
            onChange={(event) => change({ lock_application_role: event.currentTarget.checked })}
          />
          <NumberInput
            label={t('settingsGroups.form.maxMembers')}
            description={t('settingsGroups.form.maxMembersHint')}
            min={0}
            max={MAX_MEMBERS}
            allowDecimal={false}
            allowNegative={false}
            clampBehavior="strict"
            value={value.max_invitation ?? ''}
            disabled={readOnly}
            onChange={(n) => change({ max_invitation: typeof n === 'number' ? n : null })}
          />
          <Switch
            label={t('settingsGroups.form.systemInvitation')}
            description={t('settingsGroups.form.systemInvitationHint')}
            checked={value.system_invitation}
            disabled={readOnly}
            onChange={(event) => change({ system_invitation: event.currentTarget.checked })}
          />
          <Switch
            label={t('settingsGroups.form.emailInvitation')}
            description={t('settingsGroups.form.emailInvitationHint')}
            checked={value.email_invitation}
            disabled={readOnly}
            onChange={(event) => change({ email_invitation: event.currentTarget.checked })}
          />
        </>
      )}
    </Stack>
  );
}

/** Associations tab: the event rules that attach every new API or application to the group. */
export function AssociationsSection({ value, change, readOnly }: SectionProps) {
  const { t } = useTranslation();
  const has = (event: GroupEvent) => value.event_rules.some((r) => r.event === event);
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {t('settingsGroups.form.eventsHint')}
      </Text>
      {GROUP_EVENTS.map((event) => (
        <Checkbox
          key={event}
          label={t(`settingsGroups.form.event.${event}`)}
          checked={has(event)}
          disabled={readOnly}
          onChange={(e) =>
            change({
              event_rules: e.currentTarget.checked
                ? [...value.event_rules, { event }]
                : value.event_rules.filter((r) => r.event !== event),
            })
          }
        />
      ))}
    </Stack>
  );
}
