import { Button, Group, MultiSelect, Paper, Stack, TextInput, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { z } from 'zod';
import { useSession } from '../../../shared/session/current-user';
import { hasPermission } from '../../../shared/session/permissions';
import { notifySuccess } from '../../../shared/ui/notify';
import { translatedInput } from '../../../shared/ui/translated-input';
import type { Entrypoint } from '../api/tags';
import { useEntrypoint, useSaveEntrypoint, useTags } from '../api/tags';
import { isHttpUrl } from './default-entrypoint';
import { TagFormFrame } from './tag-page';
import { TAGS } from './tags-page';

const entrypointSchema = z.object({
  value: z
    .string()
    .trim()
    .min(1, 'settingsTags.errors.entrypointRequired')
    .refine(isHttpUrl, 'settingsTags.errors.urlInvalid'),
  tags: z.array(z.string()).min(1, 'settingsTags.errors.tagsRequired'),
});

/** /settings/tags/entrypoint/new and /settings/tags/entrypoint/{entrypointId}: value and tags. */
export function EntrypointPage() {
  const { entrypointId } = useParams();
  const id = entrypointId === 'new' ? undefined : entrypointId;
  const entrypoint = useEntrypoint(id);
  const tags = useTags();
  return (
    <TagFormFrame loading={(!!id && entrypoint.isPending) || tags.isPending}>
      {id && !entrypoint.data ? null : (
        <EntrypointForm
          key={JSON.stringify(entrypoint.data ?? null)}
          entrypoint={entrypoint.data}
          tags={(tags.data ?? []).map((tag) => ({ value: tag.id, label: tag.name }))}
        />
      )}
    </TagFormFrame>
  );
}

function EntrypointForm({
  entrypoint,
  tags,
}: {
  entrypoint: Entrypoint | undefined;
  tags: { value: string; label: string }[];
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useSession();
  const save = useSaveEntrypoint(entrypoint?.id);
  const canSave = hasPermission(user, entrypoint ? 'management-entrypoint-u' : 'management-entrypoint-c');
  const form = useForm({
    initialValues: { value: entrypoint?.value ?? '', tags: entrypoint?.tags ?? [] },
    validate: schemaResolver(entrypointSchema, { sync: true }),
    validateInputOnChange: true,
  });
  return (
    <form
      noValidate
      onSubmit={form.onSubmit((values) =>
        save.mutate(
          { value: values.value.trim(), tags: values.tags },
          {
            onSuccess: (saved) => {
              notifySuccess('settingsTags.entrypoints.saved', { value: saved.value });
              void navigate(TAGS);
            },
          },
        ),
      )}
    >
      <Stack gap="lg">
        <Title order={2} size="h3">
          {entrypoint ? t('settingsTags.entrypoints.editTitle') : t('settingsTags.entrypoints.newTitle')}
        </Title>
        <Paper withBorder radius="md" p="md">
          <Stack gap="md">
            <TextInput
              label={t('settingsTags.entrypoints.value')}
              description={t('settingsTags.entrypoints.valueHint')}
              placeholder="https://api.company.com"
              withAsterisk
              readOnly={!canSave}
              {...translatedInput(form.getInputProps('value'), t)}
            />
            <MultiSelect
              label={t('settingsTags.entrypoints.tags')}
              withAsterisk
              data={tags}
              searchable
              readOnly={!canSave}
              {...translatedInput(form.getInputProps('tags'), t)}
            />
          </Stack>
        </Paper>
        {canSave && (
          <Group justify="flex-end" gap="sm">
            <Button type="submit" loading={save.isPending} disabled={!form.isValid() || !form.isDirty()}>
              {entrypoint ? t('common.save') : t('settingsTags.create')}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
