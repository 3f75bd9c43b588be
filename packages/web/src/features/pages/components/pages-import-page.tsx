import { Alert, Button, Group, Select, Stack, Switch, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { JsonObject, JsonSchema } from '../../../shared/ui/json-schema-form';
import { isValid, JsonSchemaForm, withDefaults } from '../../../shared/ui/json-schema-form';
import type { TranslationKey } from '../../../shared/i18n/keys';
import { notifySuccess } from '../../../shared/ui/notify';
import { useFetchers, useImportPages } from '../api/fetchers';
import { useDocsScope } from './docs-scope';

/**
 * Import pages from an external source (`documentation/import`): a source type is required, its
 * settings follow its schema; the screen is disabled while importing, and warns that each file costs
 * one request to the source (its rate limits). The source's sub-folders become folders; kept on the
 * root page, the import is done again by each fetch of that page. The created or updated pages are
 * counted.
 */
export function PagesImportPage() {
  const { t } = useTranslation();
  const apiId = useDocsScope().ref;
  const navigate = useNavigate();
  const fetchers = useFetchers(true);
  const importing = useImportPages(apiId);
  const [type, setType] = useState<string | null>(null);
  const [configuration, setConfiguration] = useState<JsonObject>({});
  const [published, setPublished] = useState(false);
  const [onRoot, setOnRoot] = useState(false);
  const [showErrors, setShowErrors] = useState(false);
  const fetcher = fetchers.data?.find((f) => f.id === type);
  const schema = fetcher?.schema ? (JSON.parse(fetcher.schema) as JsonSchema) : undefined;
  const busy = importing.isPending;
  const valid = !!type && (!schema || isValid(schema, configuration));
  const submit = () => {
    setShowErrors(true);
    if (!valid || !type) return;
    importing.mutate(
      { source: { type, configuration }, published, ...(onRoot ? { type: 'ROOT' as const } : {}) },
      {
        onSuccess: (pages) => {
          // A plural key: its forms (done_one, done_other...) are the leaves.
          notifySuccess('pages.import.done' as TranslationKey, { count: pages.length });
          navigate('..', { relative: 'path' });
        },
      },
    );
  };
  return (
    <Stack gap="lg" maw={720}>
      <div>
        <Title order={2} size="h3">
          {t('pages.import.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('pages.import.hint')}
        </Text>
      </div>
      <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />}>
        {t('pages.import.warning')}
      </Alert>
      <Select
        label={t('pages.source.type')}
        required
        data={(fetchers.data ?? []).map((f) => ({ value: f.id, label: f.name }))}
        value={type}
        disabled={busy}
        error={showErrors && !type ? t('pages.import.typeRequired') : undefined}
        onChange={(value) => {
          setType(value);
          const next = fetchers.data?.find((f) => f.id === value);
          setConfiguration(
            next?.schema ? (withDefaults(JSON.parse(next.schema) as JsonSchema, {}) as JsonObject) : {},
          );
        }}
      />
      {schema && (
        <JsonSchemaForm
          schema={schema}
          value={configuration}
          disabled={busy}
          showErrors={showErrors}
          idPrefix="page-import"
          onChange={setConfiguration}
        />
      )}
      <Switch
        label={t('pages.import.published')}
        checked={published}
        disabled={busy}
        onChange={(event) => setPublished(event.currentTarget.checked)}
      />
      <Switch
        label={t('pages.import.onRoot')}
        description={t('pages.import.onRootHint')}
        checked={onRoot}
        disabled={busy}
        onChange={(event) => setOnRoot(event.currentTarget.checked)}
      />
      <Group gap="sm">
        <Button onClick={submit} loading={busy}>
          {t('pages.import.submit')}
        </Button>
        <Button component={Link} to=".." relative="path" variant="default" disabled={busy}>
          {t('pages.import.back')}
        </Button>
      </Group>
    </Stack>
  );
}
