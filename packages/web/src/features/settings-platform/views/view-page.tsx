import {
  Anchor,
  Button,
  Center,
  Group,
  Loader,
  Paper,
  Stack,
  Switch,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconArrowLeft } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { z } from 'zod';
import { useSession } from '../../../shared/session/current-user';
import { hasPermission } from '../../../shared/session/permissions';
import { notifySuccess } from '../../../shared/ui/notify';
import { translatedInput } from '../../../shared/ui/translated-input';
import type { ApiSummary, View } from '../api/views';
import { useApisOfView, useSaveView, useView } from '../api/views';
import { ViewApis } from './view-apis';
import { ViewPictureField } from './view-picture-field';
import { ALL_VIEW, VIEWS } from './views-page';

/** Name limit of a view (console-applications-and-settings.md 3, 9). */
export const VIEW_NAME_MAX = 50;

const viewSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'settingsViews.errors.nameRequired')
    .max(VIEW_NAME_MAX, 'settingsViews.errors.nameTooLong'),
});

interface ViewFormValues {
  name: string;
  description: string;
  visible: boolean;
  highlightApi: string | null;
  apis: ApiSummary[];
}

/** /settings/views/new and /settings/views/{viewId} (route management.settings.view, viewnew). */
export function ViewPage() {
  const { t } = useTranslation();
  const { viewId } = useParams();
  const view = useView(viewId);
  const apis = useApisOfView(viewId && viewId !== ALL_VIEW ? viewId : undefined);
  const loading = !!viewId && (view.isPending || (viewId !== ALL_VIEW && apis.isPending));
  return (
    <Stack gap="lg">
      <Anchor component={Link} to={VIEWS} size="sm" w="fit-content">
        <Group gap={4}>
          <IconArrowLeft size={16} aria-hidden />
          {t('settingsViews.back')}
        </Group>
      </Anchor>
      {loading ? (
        <Center py="xl">
          <Loader aria-label={t('common.loading')} />
        </Center>
      ) : viewId && !view.data ? null : (
        <ViewForm
          // A fresh form for each new content of the view or its APIs (not for a mere refetch).
          key={JSON.stringify([view.data ?? null, (apis.data ?? []).map((a) => a.id)])}
          view={view.data}
          apis={apis.data ?? []}
        />
      )}
    </Stack>
  );
}

function ViewForm({ view, apis }: { view: View | undefined; apis: ApiSummary[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useSession();
  const save = useSaveView(view?.id);
  const editing = view !== undefined;
  const canSave = hasPermission(user, editing ? 'portal-view-u' : 'portal-view-c');
  const [picture, setPicture] = useState<string | null | undefined>(undefined);
  const form = useForm<ViewFormValues>({
    initialValues: {
      name: view?.name ?? '',
      description: view?.description ?? '',
      visible: !(view?.hidden ?? false),
      highlightApi: view?.highlightApi ?? null,
      apis,
    },
    validate: schemaResolver(viewSchema, { sync: true }),
    validateInputOnChange: true,
  });
  const dirty = form.isDirty() || picture !== undefined;

  const submit = form.onSubmit((values) => {
    const before = new Set(apis.map((a) => a.id));
    const after = new Set(values.apis.map((a) => a.id));
    save.mutate(
      {
        input: {
          name: values.name.trim(),
          description: values.description.trim() || null,
          hidden: !values.visible,
          defaultView: view?.defaultView ?? false,
          highlightApi: values.highlightApi && after.has(values.highlightApi) ? values.highlightApi : null,
          ...(picture !== undefined ? { picture } : {}),
        },
        attach: [...after].filter((id) => !before.has(id)),
        detach: [...before].filter((id) => !after.has(id)),
      },
      {
        onSuccess: (saved) => {
          notifySuccess(editing ? 'settingsViews.saved' : 'settingsViews.created', { name: saved.name });
          if (!editing) void navigate(`${VIEWS}/${encodeURIComponent(saved.id)}`);
        },
      },
    );
  });

  return (
    <form noValidate onSubmit={submit}>
      <Stack gap="lg">
        <div>
          <Title order={2} size="h3">
            {view?.name ?? t('settingsViews.newTitle')}
          </Title>
          {view && (
            <Text size="sm" c="dimmed">
              {t('settingsViews.apiCount', { total: view.totalApis })}
            </Text>
          )}
        </div>
        <Paper withBorder radius="md" p="md">
          <Stack gap="md">
            <TextInput
              label={t('settingsViews.columns.name')}
              withAsterisk
              readOnly={!canSave}
              {...translatedInput(form.getInputProps('name'), t)}
            />
            <Textarea
              label={t('settingsViews.columns.description')}
              autosize
              minRows={2}
              readOnly={!canSave}
              {...form.getInputProps('description')}
            />
            <Switch
              label={t('settingsViews.visible')}
              description={t('settingsViews.visibleHint')}
              disabled={!canSave}
              {...form.getInputProps('visible', { type: 'checkbox' })}
            />
            <ViewPictureField
              current={view?.picture_url ?? null}
              name={form.values.name}
              value={picture}
              disabled={!canSave}
              onChange={setPicture}
            />
          </Stack>
        </Paper>
        {view?.id === ALL_VIEW ? (
          <Text size="sm" c="dimmed">
            {t('settingsViews.allHint')}
          </Text>
        ) : (
          <ViewApis
            apis={form.values.apis}
            highlightApi={form.values.highlightApi}
            editable={canSave}
            onChange={(next) => form.setFieldValue('apis', next)}
            onHighlight={(id) => form.setFieldValue('highlightApi', id)}
          />
        )}
        {canSave && (
          <Group justify="flex-end" gap="sm">
            {editing && (
              <Button
                variant="default"
                disabled={!dirty}
                onClick={() => {
                  form.reset();
                  setPicture(undefined);
                }}
              >
                {t('common.reset')}
              </Button>
            )}
            <Button type="submit" loading={save.isPending} disabled={!form.isValid() || !dirty}>
              {editing ? t('common.save') : t('settingsViews.create')}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
