import {
  Button,
  Divider,
  Group,
  MultiSelect,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TagsInput,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { humanDate } from '../../../../shared/lib/dates';
import { useApiPermissions } from '../../../../shared/session/api-permissions';
import { useSession } from '../../../../shared/session/current-user';
import { hasPermission } from '../../../../shared/session/permissions';
import { notifySuccess } from '../../notify';
import { translatedInput } from '../../../../shared/ui/translated-input';
import { useUpdateApi } from '../../api/change-api';
import {
  useApiGroups,
  useConfiguredGroups,
  useConfiguredTags,
  useConfiguredViews,
  useUserTags,
} from '../../api/members';
import type { Api } from '../../api/types';
import { ConfirmDialog, ConfirmText } from '../../../../shared/ui/confirm-dialog';
import { HTTP_METHODS } from '../create/wizard-steps';
import { ApiPictureField } from './api-picture-field';
import { tagOptions } from './tag-options';
import { CODE_INPUT_STYLES } from '../../../../shared/ui/code-input';
import type { GeneralValues } from './general-values';
import { LOAD_BALANCING, LOGGING, changesOf, generalSchema, proxyGroups, valuesOf } from './general-values';

/**
 * The general settings (console-apis.md 2.4): name, version, description, context path (its owner
 * only), picture, labels, views, groups, sharding tags, load balancing, logging, CORS, failover. Save and
 * Reset only when something changed; the save carries the entity tag (412 when another tab saved first).
 */
export function GeneralForm({
  api,
  canUpdate,
  canEditContextPath,
  canReadDefinition,
}: {
  api: Api;
  canUpdate: boolean;
  canEditContextPath: boolean;
  /** api-definition-r: the proxy settings (load balancing, logging, failover, CORS) are shown. */
  canReadDefinition: boolean;
}) {
  const { t } = useTranslation();
  const update = useUpdateApi(api.id);
  const permissions = useApiPermissions(api.id);
  const [picture, setPicture] = useState<string | null | undefined>(undefined);
  const [askAllOrigins, setAskAllOrigins] = useState(false);
  const form = useForm<GeneralValues>({
    initialValues: valuesOf(api),
    validate: schemaResolver(generalSchema, { sync: true }),
    validateInputOnChange: true,
  });
  const { user } = useSession();
  const tags = useUserTags();
  // Every tag, to show those the user may not use disabled (readers of sharding tags only).
  const allTags = useConfiguredTags(hasPermission(user, 'management-tag-r'));
  const views = useConfiguredViews();
  const groups = useConfiguredGroups();
  // The API's own groups name them when the platform's list is refused (members who may read them).
  const apiGroups = useApiGroups(api.id, groups.isError && permissions.has('api-member-r'));
  const dirty = form.isDirty() || picture !== undefined;
  const readOnly = !canUpdate;

  const options = (known: string[] | undefined, current: string[], names?: Map<string, string>) =>
    [...new Set([...(known ?? []), ...current])].map((value) => ({
      value,
      label: names?.get(value) ?? value,
    }));
  const groupNames = new Map([
    ...(groups.data ?? []).map((g) => [g.id, g.name] as const),
    ...(apiGroups.data ?? []).map((g) => [g.id, g.name] as const),
  ]);
  const viewNames = new Map((views.data ?? []).map((v) => [v.id, v.name] as const));

  return (
    <form
      noValidate
      onSubmit={form.onSubmit((values) =>
        update.mutate(changesOf(api, values, picture), {
          onSuccess: ({ api: saved }) => {
            notifySuccess('apis.general.saved');
            const next = valuesOf(saved);
            form.setInitialValues(next);
            form.setValues(next);
            form.resetDirty(next);
            setPicture(undefined);
          },
        }),
      )}
    >
      <Stack gap="lg">
        <Section title={t('apis.general.sections.identity')}>
          <Group align="flex-start" gap="xl" wrap="wrap">
            <ApiPictureField
              current={api.picture_url}
              name={api.name}
              value={picture}
              disabled={readOnly}
              onChange={setPicture}
            />
            <Stack gap="md" flex={1} miw={280}>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput
                  label={t('apis.fields.name')}
                  withAsterisk
                  readOnly={readOnly}
                  {...translatedInput(form.getInputProps('name'), t)}
                />
                <TextInput
                  label={t('apis.fields.version')}
                  withAsterisk
                  readOnly={readOnly}
                  {...translatedInput(form.getInputProps('version'), t)}
                />
              </SimpleGrid>
              <Textarea
                label={t('apis.fields.description')}
                withAsterisk
                autosize
                minRows={2}
                readOnly={readOnly}
                {...translatedInput(form.getInputProps('description'), t)}
              />
              <TextInput
                label={t('apis.fields.contextPath')}
                styles={CODE_INPUT_STYLES}
                readOnly={readOnly || !canEditContextPath}
                description={canEditContextPath ? undefined : t('apis.general.contextPathOwnerOnly')}
                {...translatedInput(form.getInputProps('context_path'), t)}
              />
              <SimpleGrid cols={{ base: 1, sm: 3 }}>
                <ReadOnly label={t('apis.frame.owner')} value={api.owner?.displayName ?? '—'} />
                <ReadOnly label={t('apis.frame.createdAt')} value={humanDate(api.created_at)} />
                <ReadOnly
                  label={t('apis.frame.deployedAt')}
                  value={api.deployed_at ? humanDate(api.deployed_at) : t('apis.frame.neverDeployed')}
                />
              </SimpleGrid>
            </Stack>
          </Group>
        </Section>
        <Section title={t('apis.general.sections.classification')}>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TagsInput
              label={t('apis.fields.labels')}
              readOnly={readOnly}
              clearable
              {...form.getInputProps('labels')}
            />
            {views.isSuccess ? (
              <MultiSelect
                label={t('apis.fields.views')}
                data={options(
                  views.data.map((v) => v.id),
                  form.values.views,
                  viewNames,
                )}
                readOnly={readOnly}
                {...form.getInputProps('views')}
              />
            ) : (
              <TagsInput
                label={t('apis.fields.views')}
                readOnly={readOnly}
                {...form.getInputProps('views')}
              />
            )}
            <MultiSelect
              label={t('apis.fields.groups')}
              data={options(
                groups.data?.map((g) => g.id),
                form.values.groups,
                groupNames,
              )}
              readOnly={readOnly}
              description={groups.isError ? t('apis.general.groupsUnavailable') : undefined}
              {...form.getInputProps('groups')}
            />
            <MultiSelect
              label={t('apis.fields.tags')}
              data={tagOptions(tags.data, allTags.data, form.values.tags)}
              readOnly={readOnly}
              nothingFoundMessage={t('apis.general.noTag')}
              {...form.getInputProps('tags')}
            />
          </SimpleGrid>
        </Section>
        {canReadDefinition && (
          <Section title={t('apis.general.sections.proxy')}>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              {proxyGroups(api).map((group, index) => (
                <Select
                  key={group.name}
                  label={t('apis.general.loadBalancing', { group: group.name })}
                  data={LOAD_BALANCING.map((value) => ({
                    value,
                    label: t(`apis.general.loadBalancingTypes.${value}`),
                  }))}
                  allowDeselect={false}
                  readOnly={readOnly}
                  {...form.getInputProps(`loadBalancing.${index}`)}
                />
              ))}
              <Select
                label={t('apis.general.loggingMode')}
                data={LOGGING.map((value) => ({ value, label: t(`apis.general.loggingModes.${value}`) }))}
                allowDeselect={false}
                readOnly={readOnly}
                {...form.getInputProps('logging')}
              />
            </SimpleGrid>
            <Divider my="xs" />
            <Switch
              label={t('apis.general.failover.enabled')}
              disabled={readOnly}
              {...form.getInputProps('failoverEnabled', { type: 'checkbox' })}
            />
            {form.values.failoverEnabled && (
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <NumberInput
                  label={t('apis.general.failover.maxAttempts')}
                  min={1}
                  allowDecimal={false}
                  readOnly={readOnly}
                  withAsterisk
                  {...translatedInput(form.getInputProps('maxAttempts'), t)}
                />
                <NumberInput
                  label={t('apis.general.failover.retryTimeout')}
                  min={1}
                  allowDecimal={false}
                  readOnly={readOnly}
                  withAsterisk
                  {...translatedInput(form.getInputProps('retryTimeout'), t)}
                />
              </SimpleGrid>
            )}
            <Divider my="xs" />
            <Switch
              label={t('apis.general.cors.enabled')}
              disabled={readOnly}
              {...form.getInputProps('corsEnabled', { type: 'checkbox' })}
            />
            {form.values.corsEnabled && (
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TagsInput
                  label={t('apis.general.cors.allowOrigin')}
                  withAsterisk
                  readOnly={readOnly}
                  {...translatedInput(form.getInputProps('allowOrigin'), t)}
                  onChange={(value) => {
                    if (value.includes('*') && !form.values.allowOrigin.includes('*')) setAskAllOrigins(true);
                    form.setFieldValue('allowOrigin', value);
                  }}
                />
                <MultiSelect
                  label={t('apis.general.cors.allowMethods')}
                  data={HTTP_METHODS}
                  withAsterisk
                  readOnly={readOnly}
                  {...translatedInput(form.getInputProps('allowMethods'), t)}
                />
                <TagsInput
                  label={t('apis.general.cors.allowHeaders')}
                  readOnly={readOnly}
                  {...form.getInputProps('allowHeaders')}
                />
                <TagsInput
                  label={t('apis.general.cors.exposeHeaders')}
                  readOnly={readOnly}
                  {...form.getInputProps('exposeHeaders')}
                />
                <NumberInput
                  label={t('apis.general.cors.maxAge')}
                  description={t('apis.general.cors.maxAgeHint')}
                  min={-1}
                  allowDecimal={false}
                  withAsterisk
                  readOnly={readOnly}
                  {...translatedInput(form.getInputProps('maxAge'), t)}
                />
                <Switch
                  mt="xl"
                  label={t('apis.general.cors.allowCredentials')}
                  disabled={readOnly}
                  {...form.getInputProps('allowCredentials', { type: 'checkbox' })}
                />
              </SimpleGrid>
            )}
          </Section>
        )}
        {canUpdate && (
          <Group justify="flex-end" gap="sm">
            <Button
              variant="default"
              disabled={!dirty || update.isPending}
              onClick={() => {
                form.reset();
                setPicture(undefined);
              }}
            >
              {t('common.reset')}
            </Button>
            <Button type="submit" loading={update.isPending} disabled={!dirty || !form.isValid()}>
              {t('common.save')}
            </Button>
          </Group>
        )}
      </Stack>
      <ConfirmDialog
        opened={askAllOrigins}
        title={t('apis.general.cors.allOriginsTitle')}
        confirmLabel={t('apis.general.cors.allOriginsConfirm')}
        color="orange"
        onClose={() => {
          setAskAllOrigins(false);
          form.setFieldValue(
            'allowOrigin',
            form.values.allowOrigin.filter((origin) => origin !== '*'),
          );
        }}
        onConfirm={() => setAskAllOrigins(false)}
      >
        <ConfirmText>{t('apis.general.cors.allOriginsQuestion')}</ConfirmText>
      </ConfirmDialog>
    </form>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="lg">
      <Stack gap="md">
        <Title order={2} size="h4">
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}

function ReadOnly({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      <Text size="sm" c="dimmed">
        {value}
      </Text>
    </div>
  );
}
