import { Alert, Button, Checkbox, Group, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { IconFileCode } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ImportOptions, ImportRequest } from '../../api/import-export';
import type { ImportFileKind } from '../../rules';
import { importFileKind } from '../../rules';
import { FileDrop } from '../file-drop';

type Problem = 'invalidFile' | 'invalidJson' | 'fileRequired' | 'urlRequired';

const NO_OPTIONS: ImportOptions = {
  with_documentation: false,
  with_path_mapping: false,
  with_policy_paths: false,
  with_policy_mocks: false,
};

/**
 * An import from a file or a URL with its options (console-apis.md 2.1 and 5): documentation, path
 * mappings, policies on paths, and mocks (offered only with policies on paths).
 */
export function ImportForm({
  submitLabel,
  pending,
  onImport,
  onCancel,
}: {
  submitLabel: string;
  pending: boolean;
  onImport: (request: ImportRequest) => void;
  onCancel?: () => void;
}) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<'file' | 'url'>('file');
  const [file, setFile] = useState<{ name: string; text: string; kind: ImportFileKind } | null>(null);
  const [url, setUrl] = useState('');
  const [problem, setProblem] = useState<Problem | null>(null);
  const [options, setOptions] = useState<ImportOptions>(NO_OPTIONS);

  const choose = async (chosen: File) => {
    const text = await chosen.text();
    const found = importFileKind(chosen.name, text);
    if ('error' in found) {
      setFile(null);
      setProblem(found.error);
      return;
    }
    setProblem(null);
    setFile({ name: chosen.name, text, kind: found.kind });
  };

  const submit = () => {
    if (mode === 'file') {
      if (!file) return setProblem(problem ?? 'fileRequired');
      onImport({ ...options, type: 'INLINE', payload: file.text, swagger: file.kind === 'swagger' });
    } else {
      if (!url.trim()) return setProblem('urlRequired');
      onImport({ ...options, type: 'URL', payload: url.trim(), swagger: false });
    }
  };

  const option = (key: keyof ImportOptions, label: string) => (
    <Checkbox
      label={label}
      checked={options[key]}
      onChange={(event) => {
        const checked = event.currentTarget.checked;
        setOptions((current) => ({
          ...current,
          [key]: checked,
          ...(key === 'with_policy_paths' && !checked ? { with_policy_mocks: false } : {}),
        }));
      }}
    />
  );
  const swaggerOptions = mode === 'url' || file?.kind !== 'native';

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Stack gap="md">
        <SegmentedControl
          value={mode}
          onChange={(value) => {
            setMode(value as 'file' | 'url');
            setProblem(null);
          }}
          data={[
            { value: 'file', label: t('apis.import.fromFile') },
            { value: 'url', label: t('apis.import.fromUrl') },
          ]}
          aria-label={t('apis.import.source')}
        />
        {mode === 'file' ? (
          <Stack gap="xs">
            <FileDrop
              accept=".json,.yml,.yaml"
              label={t('apis.import.chooseFile')}
              hint={t('apis.import.fileHint')}
              onFiles={(files) => files[0] && void choose(files[0])}
            />
            {file && (
              <Group gap="xs">
                <IconFileCode size={18} />
                <Text size="sm" fw={500}>
                  {file.name}
                </Text>
                <Text size="xs" c="dimmed">
                  {file.kind === 'swagger' ? t('apis.import.kindSwagger') : t('apis.import.kindNative')}
                </Text>
              </Group>
            )}
          </Stack>
        ) : (
          <TextInput
            label={t('apis.import.url')}
            placeholder="https://example.com/openapi.yaml"
            value={url}
            withAsterisk
            onChange={(event) => {
              setUrl(event.currentTarget.value);
              setProblem(null);
            }}
          />
        )}
        {problem && (
          <Alert color="red" variant="light" role="alert">
            {t(`apis.import.problem.${problem}`)}
          </Alert>
        )}
        {swaggerOptions && (
          <Stack gap="xs">
            <Text size="sm" fw={600}>
              {t('apis.import.options')}
            </Text>
            {option('with_documentation', t('apis.import.withDocumentation'))}
            {option('with_path_mapping', t('apis.import.withPathMapping'))}
            {option('with_policy_paths', t('apis.import.withPolicyPaths'))}
            {options.with_policy_paths && (
              <div style={{ paddingLeft: 32 }}>
                {option('with_policy_mocks', t('apis.import.withPolicyMocks'))}
              </div>
            )}
          </Stack>
        )}
        <Group justify="flex-end" gap="sm">
          {onCancel && (
            <Button variant="default" onClick={onCancel}>
              {t('apis.confirm.cancel')}
            </Button>
          )}
          <Button type="submit" loading={pending}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
