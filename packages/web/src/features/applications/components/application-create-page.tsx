import { Anchor, Button, Group, Paper, Radio, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useConfig } from '../../../shared/config/config-context';
import { notifySuccess } from '../../../shared/ui/notify';
import { useCreateApplication } from '../api/applications';
import type { ApplicationType } from '../api/types';
import type { ApplicationFormValues } from '../rules';
import { APPLICATION_TYPES, applicationFormSchema, emptyApplicationForm, settingsOf } from '../rules';
import { GeneralFields, TypeHint, TypeSettingsFields } from './application-fields';
import classes from './applications.module.css';

/** Whether a type of application is offered (`application.types.{type}.enabled`, on unless set off). */
function useOfferedTypes(): ApplicationType[] {
  const config = useConfig() as {
    application?: { registration?: { enabled?: boolean }; types?: Record<string, { enabled?: boolean }> };
  };
  if (config.application?.registration?.enabled !== true) return ['SIMPLE'];
  return APPLICATION_TYPES.filter(
    (type) => config.application?.types?.[type.toLowerCase()]?.enabled !== false,
  );
}

/**
 * management.applications.create (`/management/applications/create`): name and description; with client
 * registration enabled, the type (SIMPLE, BROWSER, WEB or NATIVE) and its OAuth settings, otherwise the
 * simple form with a type and a client id.
 */
export function ApplicationCreatePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const types = useOfferedTypes();
  const create = useCreateApplication();
  const form = useForm<ApplicationFormValues>({
    initialValues: emptyApplicationForm(types[0] ?? 'SIMPLE'),
    validate: schemaResolver(applicationFormSchema, { sync: true }),
    validateInputOnBlur: true,
  });
  const values = form.getValues();
  const chooseType = (type: ApplicationType) => {
    const fresh = emptyApplicationForm(type);
    form.setValues({ type, grantTypes: fresh.grantTypes, redirectUris: [], appType: '', clientId: '' });
  };

  return (
    <Stack gap="lg" maw={880}>
      <div>
        <Anchor component={Link} to="/management/applications" size="sm">
          <Group gap={4} component="span">
            <IconArrowLeft size={14} />
            {t('applications.create.back')}
          </Group>
        </Anchor>
        <Title order={1} size="h2" mt={4}>
          {t('applications.create.title')}
        </Title>
        <Text c="dimmed">{t('applications.create.subtitle')}</Text>
      </div>
      <form
        noValidate
        onSubmit={form.onSubmit((v) =>
          create.mutate(
            { name: v.name.trim(), description: v.description.trim(), type: v.type, settings: settingsOf(v) },
            {
              onSuccess: (created) => {
                notifySuccess('applications.create.done', { name: created.name });
                navigate(`/management/applications/${encodeURIComponent(created.id)}`);
              },
            },
          ),
        )}
      >
        <Stack gap="lg">
          <Paper withBorder radius="md" p="lg">
            <Stack gap="md">
              <Title order={2} size="h4">
                {t('applications.create.general')}
              </Title>
              <GeneralFields form={form} />
            </Stack>
          </Paper>
          {types.length > 1 && (
            <Paper withBorder radius="md" p="lg">
              <Radio.Group
                label={
                  <Title order={2} size="h4">
                    {t('applications.fields.type')}
                  </Title>
                }
                description={t('applications.create.typeHint')}
                value={values.type}
                onChange={(value) => chooseType(value as ApplicationType)}
              >
                <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" mt="sm">
                  {types.map((type) => (
                    <Radio.Card key={type} value={type} p="sm" radius="md" className={classes.choice}>
                      <Group wrap="nowrap" align="flex-start" gap="sm">
                        <Radio.Indicator />
                        <TypeHint type={type} />
                      </Group>
                    </Radio.Card>
                  ))}
                </SimpleGrid>
              </Radio.Group>
            </Paper>
          )}
          <Paper withBorder radius="md" p="lg">
            <Stack gap="md">
              <Title order={2} size="h4">
                {values.type === 'SIMPLE'
                  ? t('applications.create.simpleSettings')
                  : t('applications.create.oauthSettings')}
              </Title>
              <TypeSettingsFields form={form} />
            </Stack>
          </Paper>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" component={Link} to="/management/applications">
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending} disabled={!form.isValid()}>
              {t('applications.create.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
