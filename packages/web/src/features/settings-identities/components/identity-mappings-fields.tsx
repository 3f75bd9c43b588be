import {
  ActionIcon,
  Button,
  Group,
  MultiSelect,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  TagsInput,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useGroupOptions, useRoleNames } from '../api/identities';
import type { IdentityFormValues } from './identity-form';

/**
 * Group mappings (condition + groups), role mappings (condition, portal role, management role) and the
 * user profile mapping of a provider (update mode). Conditions are CEL over the user's claims: `profile`.
 */
export function MappingsFields({
  form,
  readOnly,
}: {
  form: UseFormReturnType<IdentityFormValues>;
  readOnly: boolean;
}) {
  const { t } = useTranslation();
  const groups = useGroupOptions();
  const portalRoles = useRoleNames('PORTAL');
  const managementRoles = useRoleNames('MANAGEMENT');
  const values = form.getValues();
  return (
    <>
      <Paper withBorder p="md">
        <Stack>
          <Title order={3} size="h5">
            {t('settingsIdentities.groupMappings')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('settingsIdentities.conditionHint')}
          </Text>
          {values.groupMappings.map((_, i) => (
            <Group key={i} align="flex-start" wrap="nowrap">
              <TextInput
                style={{ flex: 1 }}
                label={t('settingsIdentities.condition')}
                required
                readOnly={readOnly}
                {...form.getInputProps(`groupMappings.${i}.condition`)}
              />
              {groups.isSuccess ? (
                <MultiSelect
                  style={{ flex: 1 }}
                  label={t('settingsIdentities.groups')}
                  data={groups.data}
                  searchable
                  readOnly={readOnly}
                  {...form.getInputProps(`groupMappings.${i}.groups`)}
                />
              ) : (
                <TagsInput
                  style={{ flex: 1 }}
                  label={t('settingsIdentities.groupIds')}
                  readOnly={readOnly}
                  {...form.getInputProps(`groupMappings.${i}.groups`)}
                />
              )}
              {!readOnly && (
                <ActionIcon
                  mt={28}
                  variant="subtle"
                  color="red"
                  aria-label={t('settingsIdentities.removeMapping')}
                  onClick={() => form.removeListItem('groupMappings', i)}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              )}
            </Group>
          ))}
          {!readOnly && (
            <Button
              variant="light"
              w="fit-content"
              leftSection={<IconPlus size={16} />}
              onClick={() => form.insertListItem('groupMappings', { condition: '', groups: [] })}
            >
              {t('settingsIdentities.addGroupMapping')}
            </Button>
          )}
        </Stack>
      </Paper>
      <Paper withBorder p="md">
        <Stack>
          <Title order={3} size="h5">
            {t('settingsIdentities.roleMappings')}
          </Title>
          {values.roleMappings.map((_, i) => (
            <Group key={i} align="flex-start" wrap="nowrap">
              <TextInput
                style={{ flex: 2 }}
                label={t('settingsIdentities.condition')}
                required
                readOnly={readOnly}
                {...form.getInputProps(`roleMappings.${i}.condition`)}
              />
              <Select
                style={{ flex: 1 }}
                label={t('settingsIdentities.portalRole')}
                data={portalRoles.data ?? []}
                clearable
                readOnly={readOnly}
                {...form.getInputProps(`roleMappings.${i}.portal`)}
              />
              <Select
                style={{ flex: 1 }}
                label={t('settingsIdentities.managementRole')}
                data={managementRoles.data ?? []}
                clearable
                readOnly={readOnly}
                {...form.getInputProps(`roleMappings.${i}.management`)}
              />
              {!readOnly && (
                <ActionIcon
                  mt={28}
                  variant="subtle"
                  color="red"
                  aria-label={t('settingsIdentities.removeMapping')}
                  onClick={() => form.removeListItem('roleMappings', i)}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              )}
            </Group>
          ))}
          {!readOnly && (
            <Button
              variant="light"
              w="fit-content"
              leftSection={<IconPlus size={16} />}
              onClick={() =>
                form.insertListItem('roleMappings', { condition: '', portal: '', management: '' })
              }
            >
              {t('settingsIdentities.addRoleMapping')}
            </Button>
          )}
        </Stack>
      </Paper>
      <Paper withBorder p="md">
        <Stack>
          <Title order={3} size="h5">
            {t('settingsIdentities.userProfileMapping')}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {(['id', 'firstname', 'lastname', 'email', 'picture'] as const).map((key) => (
              <TextInput
                key={key}
                label={t(`settingsIdentities.profile.${key}`)}
                required={key === 'id'}
                readOnly={readOnly}
                {...form.getInputProps(`userProfileMapping.${key}`)}
              />
            ))}
          </SimpleGrid>
        </Stack>
      </Paper>
    </>
  );
}
