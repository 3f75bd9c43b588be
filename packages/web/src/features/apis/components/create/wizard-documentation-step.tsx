import { ActionIcon, Alert, Badge, Button, Group, Stack, TextInput } from '@mantine/core';
import { IconFileText, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { WizardPage } from '../../api/create-api';
import { pageNameOf, pageTypeOf } from '../../rules';
import { FileDrop } from '../file-drop';
import { StepFrame } from './wizard-steps';

/**
 * Step 4, Documentation (optional): Markdown (.md) and OpenAPI (.yaml, .yml, .json) files, one page each,
 * named after the file; a file already chosen is ignored.
 */
export function DocumentationStep({
  initial,
  onPrevious,
  onSkip,
  onNext,
}: {
  initial: WizardPage[];
  onPrevious: () => void;
  onSkip: () => void;
  onNext: (pages: WizardPage[]) => void;
}) {
  const { t } = useTranslation();
  const [pages, setPages] = useState<WizardPage[]>(initial);
  const [problem, setProblem] = useState<'unsupported' | 'required' | null>(null);

  const add = async (files: File[]) => {
    const chosen: WizardPage[] = [];
    let unsupported = false;
    for (const file of files) {
      const type = pageTypeOf(file.name);
      if (!type) {
        unsupported = true;
        continue;
      }
      if (pages.some((p) => p.fileName === file.name) || chosen.some((p) => p.fileName === file.name))
        continue;
      chosen.push({ name: pageNameOf(file.name), fileName: file.name, type, content: await file.text() });
    }
    setProblem(unsupported ? 'unsupported' : null);
    setPages((current) => [...current, ...chosen]);
  };

  return (
    <StepFrame
      title={t('apis.wizard.documentation.title')}
      hint={t('apis.wizard.documentation.hint')}
      actions={
        <>
          <Button variant="default" onClick={onPrevious}>
            {t('apis.wizard.previous')}
          </Button>
          <Group gap="sm">
            <Button variant="subtle" onClick={onSkip}>
              {t('apis.wizard.skip')}
            </Button>
            <Button
              onClick={() => {
                if (pages.length === 0) return setProblem('required');
                onNext(pages);
              }}
            >
              {t('apis.wizard.next')}
            </Button>
          </Group>
        </>
      }
    >
      <FileDrop
        multiple
        accept=".md,.yaml,.yml,.json"
        label={t('apis.wizard.documentation.choose')}
        hint={t('apis.wizard.documentation.filesHint')}
        onFiles={(files) => void add(files)}
      />
      {problem && (
        <Alert color="red" variant="light" role="alert">
          {t(`apis.wizard.documentation.problem.${problem}`)}
        </Alert>
      )}
      {pages.length > 0 && (
        <Stack gap="xs">
          {pages.map((page, index) => (
            <Group key={page.fileName} wrap="nowrap" gap="sm" align="flex-end">
              <IconFileText size={20} style={{ marginBottom: 8 }} />
              <TextInput
                label={t('apis.wizard.documentation.pageName', { file: page.fileName })}
                value={page.name}
                flex={1}
                onChange={(event) => {
                  const name = event.currentTarget.value;
                  setPages((current) => current.map((p, i) => (i === index ? { ...p, name } : p)));
                }}
              />
              <Badge variant="light" mb={8} color={page.type === 'MARKDOWN' ? 'blue' : 'grape'}>
                {t(`apis.pageTypes.${page.type}`)}
              </Badge>
              <ActionIcon
                variant="subtle"
                color="red"
                size="lg"
                mb={2}
                aria-label={t('apis.wizard.documentation.remove', { file: page.fileName })}
                onClick={() => setPages((current) => current.filter((_, i) => i !== index))}
              >
                <IconTrash size={18} />
              </ActionIcon>
            </Group>
          ))}
        </Stack>
      )}
    </StepFrame>
  );
}
