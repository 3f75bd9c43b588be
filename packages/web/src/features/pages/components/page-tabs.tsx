import {
  Alert,
  FileButton,
  Button,
  Group,
  MultiSelect,
  NumberInput,
  Select,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useContext, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { JsonObject, JsonSchema } from '../../../shared/ui/json-schema-form';
import { JsonSchemaForm } from '../../../shared/ui/json-schema-form';
import type { PageInput } from '../api/pages';
import { usePageGroups } from '../api/pages';
import { useFetchers } from '../api/fetchers';
import { PortalDocsContext } from './docs-scope';
import { ImageUpload } from './image-upload';

export interface TabProps {
  draft: PageInput;
  readOnly: boolean;
  onChange: (changes: Partial<PageInput>) => void;
}

/**
 * Page: the name, the flags, and the content typed or read from a file (read-only with a source); the
 * Markdown editor (500 px high) inserts uploaded images where the caret is when media upload is on.
 */
export function ContentTab({
  draft,
  readOnly,
  onChange,
  mediaUploadPath,
}: TabProps & { mediaUploadPath?: string }) {
  const { t } = useTranslation();
  const fromSource = !!draft.source?.type;
  const markdown = draft.type === 'MARKDOWN';
  const portal = useContext(PortalDocsContext);
  const editor = useRef<HTMLTextAreaElement>(null);
  const insert = (text: string) => {
    const content = draft.content ?? '';
    const at = editor.current?.selectionStart ?? content.length;
    onChange({ content: `${content.slice(0, at)}${text}${content.slice(at)}` });
  };
  return (
    <Stack gap="md">
      <TextInput
        label={t('pages.list.name')}
        required
        value={draft.name ?? ''}
        readOnly={readOnly}
        error={(draft.name ?? '').trim() === '' ? t('pages.list.nameRequired') : undefined}
        onChange={(event) => onChange({ name: event.currentTarget.value })}
      />
      <Group gap="xl">
        <Switch
          label={t('pages.edit.published')}
          checked={!!draft.published}
          disabled={readOnly}
          onChange={(event) => onChange({ published: event.currentTarget.checked })}
        />
        <Switch
          label={portal ? t('pages.edit.portalHomepage') : t('pages.edit.homepage')}
          checked={!!draft.homepage}
          disabled={readOnly}
          onChange={(event) => onChange({ homepage: event.currentTarget.checked })}
        />
      </Group>
      {fromSource && <Alert variant="light">{t('pages.edit.sourceReadOnly')}</Alert>}
      <Textarea
        ref={editor}
        label={markdown ? t('pages.edit.markdown') : t('pages.edit.content')}
        value={draft.content ?? ''}
        readOnly={readOnly || fromSource}
        autosize
        minRows={18}
        maxRows={18}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', minHeight: 500 } }}
        onChange={(event) => onChange({ content: event.currentTarget.value })}
      />
      {!readOnly && !fromSource && (
        <Group gap="sm" align="flex-start">
          <FileButton
            accept={markdown ? '.md,.markdown,text/markdown,text/plain' : '.json,.yaml,.yml,.raml'}
            onChange={(file) => void file?.text().then((content) => onChange({ content }))}
          >
            {(props) => (
              <Button {...props} variant="default" leftSection={<IconUpload size={16} />} w="fit-content">
                {t('pages.edit.fromFile')}
              </Button>
            )}
          </FileButton>
          {markdown && mediaUploadPath && <ImageUpload uploadPath={mediaUploadPath} onUploaded={insert} />}
        </Group>
      )}
    </Stack>
  );
}

const SWITCHES = [
  'tryIt',
  'tryItAnonymous',
  'showURL',
  'displayOperationId',
  'enableFiltering',
  'showExtensions',
  'showCommonExtensions',
] as const;

/** Configuration: how swagger-ui shows an OpenAPI page (console-apis.md 3; defaults docExpansion none, all tags). */
export function ConfigurationTab({ draft, readOnly, onChange }: TabProps) {
  const { t } = useTranslation();
  const configuration = draft.configuration ?? {};
  const set = (key: string, value: string) => onChange({ configuration: { ...configuration, [key]: value } });
  if (draft.type !== 'SWAGGER') return <Text c="dimmed">{t('pages.edit.noConfiguration')}</Text>;
  return (
    <Stack gap="md">
      {SWITCHES.map((key) => (
        <Switch
          key={key}
          label={t(`pages.config.${key}`)}
          checked={configuration[key] === 'true'}
          disabled={readOnly}
          onChange={(event) => set(key, String(event.currentTarget.checked))}
        />
      ))}
      <TextInput
        label={t('pages.config.tryItURL')}
        placeholder="https://"
        value={configuration.tryItURL ?? ''}
        readOnly={readOnly}
        onChange={(event) => set('tryItURL', event.currentTarget.value)}
      />
      <Select
        label={t('pages.config.docExpansion')}
        data={(['none', 'list', 'full'] as const).map((value) => ({
          value,
          label: t(`pages.config.expansion.${value}`),
        }))}
        value={configuration.docExpansion ?? 'none'}
        disabled={readOnly}
        allowDeselect={false}
        onChange={(value) => set('docExpansion', value ?? 'none')}
      />
      <NumberInput
        label={t('pages.config.maxDisplayedTags')}
        description={t('pages.config.maxDisplayedTagsHint')}
        min={-1}
        max={9999}
        value={Number(configuration.maxDisplayedTags ?? -1)}
        readOnly={readOnly}
        onChange={(value) => set('maxDisplayedTags', String(value === '' ? -1 : value))}
      />
    </Stack>
  );
}

/** External Source: a fetcher and its settings (from `GET fetchers?expand=schema`); Remove clears it. */
export function SourceTab({ draft, readOnly, onChange }: TabProps) {
  const { t } = useTranslation();
  const fetchers = useFetchers();
  const source = draft.source ?? null;
  const fetcher = fetchers.data?.find((f) => f.id === source?.type);
  return (
    <Stack gap="md">
      <Select
        label={t('pages.source.type')}
        placeholder={t('pages.source.none')}
        data={(fetchers.data ?? []).map((f) => ({ value: f.id, label: f.name }))}
        value={source?.type ?? null}
        disabled={readOnly}
        onChange={(type) => onChange({ source: type ? { type, configuration: {} } : null })}
      />
      {fetcher?.schema && source && (
        <JsonSchemaForm
          schema={JSON.parse(fetcher.schema) as JsonSchema}
          value={source.configuration}
          disabled={readOnly}
          idPrefix="page-source"
          onChange={(configuration: JsonObject) => onChange({ source: { type: source.type, configuration } })}
        />
      )}
      {source && !readOnly && (
        <Button variant="default" color="red" w="fit-content" onClick={() => onChange({ source: null })}>
          {t('pages.source.remove')}
        </Button>
      )}
    </Stack>
  );
}

/** Access Control: the groups whose members do not see the page. */
export function AccessTab({ draft, readOnly, onChange }: TabProps) {
  const { t } = useTranslation();
  const groups = usePageGroups();
  return (
    <MultiSelect
      label={t('pages.access.excluded')}
      description={t('pages.access.hint')}
      data={(groups.data ?? []).map((g) => ({ value: g.id, label: g.name }))}
      value={draft.excluded_groups ?? []}
      disabled={readOnly}
      searchable
      onChange={(excluded_groups) => onChange({ excluded_groups })}
    />
  );
}
