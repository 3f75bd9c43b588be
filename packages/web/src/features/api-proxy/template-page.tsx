import {
  ActionIcon,
  Anchor,
  Autocomplete,
  Button,
  Group,
  NumberInput,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { RESPONSE_TEMPLATE_KEYS } from '@portico/model';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { useApiPermissions } from '../../shared/session/api-permissions';
import type { TemplateValues } from './settings-model';
import { newTemplate, templateProblems, templatesOf, withTemplates } from './settings-model';
import { problemText } from './settings-frame';
import { useApiProxy } from './use-proxy';

const CONTENT_TYPES = ['*/*', 'application/json', 'application/xml', 'text/plain', 'text/html'];

/**
 * `/responsetemplates/new` and `/responsetemplates/{key}` (console-apis.md 2.5 and 9): the error key (the
 * keys the gateway refuses with are offered), then one template per content type (`Accept`): status,
 * headers and body. A new template is for any type with status 400; removing every template and saving
 * deletes the key.
 */
export function TemplatePage() {
  const { key: routeKey } = useParams();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { apiId, api, base, canUpdate, saveApi, saving } = useApiProxy();
  const permissions = useApiPermissions(apiId);
  const isNew = routeKey === undefined;
  const back = `${base}/proxy/responsetemplates`;
  const [key, setKey] = useState(routeKey ?? '');
  const [initial] = useState<TemplateValues[]>(() =>
    isNew ? [newTemplate()] : templatesOf(api.response_templates, routeKey),
  );
  const [templates, setTemplates] = useState<TemplateValues[]>(initial);
  const dirty = isNew || JSON.stringify(templates) !== JSON.stringify(initial);
  const problems = templateProblems(api.response_templates, key, isNew, templates);
  const error = (field: string) => problemText(t, problems[field]);
  const readOnly = !canUpdate || !permissions.has(`api-response_templates-${isNew ? 'c' : 'u'}`);
  const setAt = (i: number, change: Partial<TemplateValues>) =>
    setTemplates(templates.map((template, j) => (j === i ? { ...template, ...change } : template)));
  const setHeader = (i: number, h: number, pair: [string, string] | undefined) =>
    setAt(i, {
      headers:
        pair === undefined
          ? templates[i]!.headers.filter((_, k) => k !== h)
          : templates[i]!.headers.map((old, k) => (k === h ? pair : old)),
    });

  if (!isNew && !api.response_templates[routeKey]) {
    return (
      <Stack gap="sm" role="alert">
        <Text fw={600}>{t('apiProxy.templates.notFound')}</Text>
        <Anchor component={Link} to={back}>
          {t('apiProxy.templates.back')}
        </Anchor>
      </Stack>
    );
  }
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (!dirty || Object.keys(problems).length > 0 || readOnly) return;
        saveApi(
          { response_templates: withTemplates(api.response_templates, routeKey, key, templates) },
          () => void navigate(back),
        );
      }}
    >
      <Stack gap="lg">
        <Anchor component={Link} to={back} size="sm">
          {t('apiProxy.templates.back')}
        </Anchor>
        <Title order={2} size="h3">
          {isNew ? t('apiProxy.templates.titleNew') : t('apiProxy.templates.titleEdit', { key: routeKey })}
        </Title>
        <Autocomplete
          label={t('apiProxy.templates.key')}
          description={t('apiProxy.templates.keyHint')}
          withAsterisk
          readOnly={readOnly || !isNew}
          data={RESPONSE_TEMPLATE_KEYS.filter((k) => !api.response_templates[k])}
          value={key}
          onChange={setKey}
          error={error('key')}
          maw={480}
        />
        {templates.map((template, i) => (
          <Paper key={i} withBorder radius="md" p="lg">
            <Stack gap="md">
              <Group justify="space-between">
                <Title order={3} size="h5">
                  {t('apiProxy.templates.forType', { type: template.contentType || '…' })}
                </Title>
                {!readOnly && (
                  <Button
                    variant="subtle"
                    color="red"
                    leftSection={<IconTrash size={16} />}
                    onClick={() => setTemplates(templates.filter((_, j) => j !== i))}
                  >
                    {t('apiProxy.templates.removeType')}
                  </Button>
                )}
              </Group>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <Autocomplete
                  label={t('apiProxy.templates.contentType')}
                  withAsterisk
                  readOnly={readOnly}
                  data={CONTENT_TYPES}
                  value={template.contentType}
                  onChange={(contentType) => setAt(i, { contentType })}
                  error={error(`${i}.contentType`)}
                />
                <NumberInput
                  label={t('apiProxy.templates.status')}
                  withAsterisk
                  readOnly={readOnly}
                  allowDecimal={false}
                  min={100}
                  max={599}
                  clampBehavior="none"
                  value={template.status ?? ''}
                  onChange={(v) => setAt(i, { status: typeof v === 'number' ? v : undefined })}
                  error={error(`${i}.status`)}
                />
              </SimpleGrid>
              {template.headers.map(([name, value], h) => (
                <Group key={h} align="flex-start" wrap="nowrap">
                  <TextInput
                    flex={1}
                    label={t('apiProxy.http.headerName')}
                    withAsterisk
                    readOnly={readOnly}
                    value={name}
                    onChange={(e) => setHeader(i, h, [e.currentTarget.value, value])}
                    error={error(`${i}.headers.${h}.name`)}
                  />
                  <TextInput
                    flex={1}
                    label={t('apiProxy.http.headerValue')}
                    withAsterisk
                    readOnly={readOnly}
                    value={value}
                    onChange={(e) => setHeader(i, h, [name, e.currentTarget.value])}
                    error={error(`${i}.headers.${h}.value`)}
                  />
                  {!readOnly && (
                    <ActionIcon
                      mt={28}
                      variant="subtle"
                      color="red"
                      size="lg"
                      aria-label={t('apiProxy.http.removeHeader')}
                      onClick={() => setHeader(i, h, undefined)}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  )}
                </Group>
              ))}
              {!readOnly && (
                <Button
                  variant="default"
                  w="fit-content"
                  leftSection={<IconPlus size={16} />}
                  onClick={() => setAt(i, { headers: [...template.headers, ['', '']] })}
                >
                  {t('apiProxy.http.addHeader')}
                </Button>
              )}
              <Textarea
                label={t('apiProxy.templates.body')}
                readOnly={readOnly}
                autosize
                minRows={4}
                maxRows={16}
                styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
                value={template.body}
                onChange={(e) => setAt(i, { body: e.currentTarget.value })}
              />
            </Stack>
          </Paper>
        ))}
        {templates.length === 0 && (
          <Text c="dimmed">{t(isNew ? 'apiProxy.templates.noneNew' : 'apiProxy.templates.noneDeletes')}</Text>
        )}
        {!readOnly && (
          <Group justify="space-between">
            <Button
              variant="default"
              leftSection={<IconPlus size={16} />}
              onClick={() => setTemplates([...templates, { ...newTemplate(), contentType: '' }])}
            >
              {t('apiProxy.templates.addType')}
            </Button>
            <Button
              type="submit"
              loading={saving}
              disabled={!dirty || Object.keys(problems).length > 0 || (isNew && templates.length === 0)}
            >
              {t('common.save')}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
