import { Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { useSession } from '../../../shared/session/current-user';
import { hasAnyPermission } from '../../../shared/session/permissions';
import { notifySuccess } from '../../../shared/ui/notify';
import { translatedInput } from '../../../shared/ui/translated-input';
import { usePortalFlags, useSavePortalSetting } from '../api/portal-flags';

export const isHttpUrl = (u: string) => /^https?:\/\//i.test(u) && URL.canParse(u);

const schema = z.object({
  entrypoint: z
    .string()
    .trim()
    .min(1, 'settingsTags.errors.entrypointRequired')
    .refine(isHttpUrl, 'settingsTags.errors.urlInvalid'),
});

/** The default configuration: the entrypoint of APIs without a mapped tag (`portal.entrypoint`). */
export function DefaultEntrypoint() {
  const flags = usePortalFlags();
  return flags.isSuccess ? (
    <DefaultEntrypointForm key={flags.data.entrypoint} value={flags.data.entrypoint} />
  ) : null;
}

function DefaultEntrypointForm({ value }: { value: string }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const save = useSavePortalSetting();
  const canSave = hasAnyPermission(user, ['portal-settings-u', 'portal-settings-c']);
  const form = useForm({
    initialValues: { entrypoint: value },
    validate: schemaResolver(schema, { sync: true }),
    validateInputOnChange: true,
  });
  return (
    <Paper withBorder radius="md" p="md">
      <form
        noValidate
        onSubmit={form.onSubmit((v) =>
          save.mutate(
            { key: 'portal.entrypoint', value: v.entrypoint.trim() },
            { onSuccess: () => notifySuccess('settingsTags.defaultSaved') },
          ),
        )}
      >
        <Stack gap="sm">
          <div>
            <Title order={3} size="h4">
              {t('settingsTags.default.title')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('settingsTags.default.hint')}
            </Text>
          </div>
          <Group align="flex-start" gap="sm">
            <TextInput
              label={t('settingsTags.default.entrypoint')}
              placeholder="https://api.company.com"
              readOnly={!canSave}
              flex={1}
              miw={260}
              {...translatedInput(form.getInputProps('entrypoint'), t)}
            />
            {canSave && (
              <Button
                type="submit"
                mt={25}
                loading={save.isPending}
                disabled={!form.isValid() || !form.isDirty()}
              >
                {t('common.save')}
              </Button>
            )}
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
