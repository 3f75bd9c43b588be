import {
  Anchor,
  Button,
  Center,
  Group,
  Loader,
  MultiSelect,
  Paper,
  Stack,
  TagsInput,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconArrowLeft } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { z } from 'zod';
import { useSession } from '../../../shared/session/current-user';
import { hasPermission } from '../../../shared/session/permissions';
import { notifySuccess } from '../../../shared/ui/notify';
import { translatedInput } from '../../../shared/ui/translated-input';
import type { Tag } from '../api/tags';
import { useGroups, useSaveTag, useTag } from '../api/tags';
import { TAGS } from './tags-page';

/** Name limit of a sharding tag (console-applications-and-settings.md 3, 9). */
export const TAG_NAME_MAX = 64;

const tagSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'settingsTags.errors.nameRequired')
    .max(TAG_NAME_MAX, 'settingsTags.errors.nameTooLong'),
});

/** The frame of the tag and entrypoint forms: the link back to the list, a loader, the form. */
export function TagFormFrame({ loading, children }: { loading: boolean; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Stack gap="lg">
      <Anchor component={Link} to={TAGS} size="sm" w="fit-content">
        <Group gap={4}>
          <IconArrowLeft size={16} aria-hidden />
          {t('settingsTags.back')}
        </Group>
      </Anchor>
      {loading ? (
        <Center py="xl">
          <Loader aria-label={t('common.loading')} />
        </Center>
      ) : (
        children
      )}
    </Stack>
  );
}

/** /settings/tags/{tagId} ('new' creates): name, description, restricted groups. */
export function TagPage() {
  const { tagId } = useParams();
  const id = tagId === 'new' ? undefined : tagId;
  const tag = useTag(id);
  return (
    <TagFormFrame loading={!!id && tag.isPending}>
      {id && !tag.data ? null : <TagForm key={JSON.stringify(tag.data ?? null)} tag={tag.data} />}
    </TagFormFrame>
  );
}

function TagForm({ tag }: { tag: Tag | undefined }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useSession();
  const groups = useGroups();
  const save = useSaveTag(tag?.id);
  const canSave = hasPermission(user, tag ? 'management-tag-u' : 'management-tag-c');
  const form = useForm({
    initialValues: {
      name: tag?.name ?? '',
      description: tag?.description ?? '',
      restricted_groups: tag?.restricted_groups ?? [],
    },
    validate: schemaResolver(tagSchema, { sync: true }),
    validateInputOnChange: true,
  });
  const groupOptions = [
    ...new Set([...(groups.data ?? []).map((g) => g.id), ...form.values.restricted_groups]),
  ].map((value) => ({ value, label: groups.data?.find((g) => g.id === value)?.name ?? value }));

  return (
    <form
      noValidate
      onSubmit={form.onSubmit((values) =>
        save.mutate(
          {
            name: values.name.trim(),
            description: values.description.trim() || null,
            restricted_groups: values.restricted_groups,
          },
          {
            onSuccess: (saved) => {
              notifySuccess(tag ? 'settingsTags.saved' : 'settingsTags.created', { name: saved.name });
              void navigate(TAGS);
            },
          },
        ),
      )}
    >
      <Stack gap="lg">
        <div>
          <Title order={2} size="h3">
            {tag?.name ?? t('settingsTags.newTitle')}
          </Title>
          {tag && (
            <Text size="sm" c="dimmed" ff="monospace">
              {tag.id}
            </Text>
          )}
        </div>
        <Paper withBorder radius="md" p="md">
          <Stack gap="md">
            <TextInput
              label={t('settingsTags.columns.name')}
              withAsterisk
              readOnly={!canSave}
              {...translatedInput(form.getInputProps('name'), t)}
            />
            <Textarea
              label={t('settingsTags.columns.description')}
              autosize
              minRows={2}
              readOnly={!canSave}
              {...form.getInputProps('description')}
            />
            {groups.isSuccess ? (
              <MultiSelect
                label={t('settingsTags.columns.restrictedGroups')}
                description={t('settingsTags.restrictedHint')}
                data={groupOptions}
                searchable
                readOnly={!canSave}
                nothingFoundMessage={t('settingsTags.noGroup')}
                {...form.getInputProps('restricted_groups')}
              />
            ) : (
              <TagsInput
                label={t('settingsTags.columns.restrictedGroups')}
                description={t('settingsTags.restrictedByIdHint')}
                readOnly={!canSave}
                {...form.getInputProps('restricted_groups')}
              />
            )}
          </Stack>
        </Paper>
        {canSave && (
          <Group justify="flex-end" gap="sm">
            {tag && (
              <Button variant="default" disabled={!form.isDirty()} onClick={() => form.reset()}>
                {t('common.reset')}
              </Button>
            )}
            <Button type="submit" loading={save.isPending} disabled={!form.isValid() || !form.isDirty()}>
              {tag ? t('common.save') : t('settingsTags.create')}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
