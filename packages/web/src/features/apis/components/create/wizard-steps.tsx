import type { TranslationKey } from '../../../../shared/i18n/keys';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Group,
  MultiSelect,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconFileText, IconPlus, IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { isHttpError } from '../../../../shared/http';
import { translatedInput } from '../../../../shared/ui/translated-input';
import { verifyContextPath } from '../../api/create-api';
import type { WizardPage } from '../../api/create-api';
import type { PlanStepValues } from '../../rules';
import { gatewayStepSchema, generalStepSchema, pageNameOf, pageTypeOf, planStepSchema } from '../../rules';
import { FileDrop } from '../file-drop';
import { CODE_INPUT_STYLES } from '../../../../shared/ui/code-input';

export type GeneralValues = z.input<typeof generalStepSchema>;
export type GatewayValues = z.input<typeof gatewayStepSchema>;

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'PATCH', 'OPTIONS', 'TRACE', 'CONNECT'];

/** The frame of a step: its title, its fields, and its buttons. */
function StepFrame({
  title,
  hint,
  children,
  actions,
}: {
  title: string;
  hint: string;
  children: ReactNode;
  actions: ReactNode;
}) {
  return (
    <Paper withBorder radius="md" p="xl">
      <Stack gap="lg">
        <div>
          <Title order={2} size="h3">
            {title}
          </Title>
          <Text size="sm" c="dimmed">
            {hint}
          </Text>
        </div>
        {children}
        <Group justify="space-between" gap="sm">
          {actions}
        </Group>
      </Stack>
    </Paper>
  );
}

/**
 * Step 1, General: name, version, description, context path. The context path is verified with the
 * server before going on, again after each change.
 */
export function GeneralStep({
  initial,
  verified,
  onCancel,
  onNext,
}: {
  initial: GeneralValues;
  verified: string | null;
  onCancel: () => void;
  onNext: (values: GeneralValues, verifiedPath: string) => void;
}) {
  const { t } = useTranslation();
  const [checking, setChecking] = useState(false);
  const form = useForm<GeneralValues>({
    initialValues: initial,
    validate: schemaResolver(generalStepSchema, { sync: true }),
    validateInputOnChange: true,
  });
  return (
    <form
      noValidate
      onSubmit={form.onSubmit(async (values) => {
        const path = values.context_path.trim();
        if (path !== verified) {
          setChecking(true);
          try {
            await verifyContextPath(path);
          } catch (error) {
            form.setFieldError(
              'context_path',
              isHttpError(error) && error.text ? error.text : t('errors.unexpected'),
            );
            return;
          } finally {
            setChecking(false);
          }
        }
        onNext(values, path);
      })}
    >
      <StepFrame
        title={t('apis.wizard.general.title')}
        hint={t('apis.wizard.general.hint')}
        actions={
          <>
            <Button variant="default" onClick={onCancel}>
              {t('apis.wizard.cancel')}
            </Button>
            <Button type="submit" loading={checking}>
              {t('apis.wizard.next')}
            </Button>
          </>
        }
      >
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t('apis.fields.name')}
            withAsterisk
            data-autofocus
            {...translatedInput(form.getInputProps('name'), t)}
          />
          <TextInput
            label={t('apis.fields.version')}
            withAsterisk
            {...translatedInput(form.getInputProps('version'), t)}
          />
        </SimpleGrid>
        <Textarea
          label={t('apis.fields.description')}
          withAsterisk
          autosize
          minRows={3}
          {...translatedInput(form.getInputProps('description'), t)}
        />
        <TextInput
          label={t('apis.fields.contextPath')}
          description={t('apis.wizard.general.contextPathHint')}
          placeholder="/my-api"
          withAsterisk
          styles={CODE_INPUT_STYLES}
          {...translatedInput(form.getInputProps('context_path'), t)}
        />
      </StepFrame>
    </form>
  );
}

/** Step 2, Gateway: the backend URL. */
export function GatewayStep({
  initial,
  onPrevious,
  onNext,
}: {
  initial: GatewayValues;
  onPrevious: () => void;
  onNext: (values: GatewayValues) => void;
}) {
  const { t } = useTranslation();
  const form = useForm<GatewayValues>({
    initialValues: initial,
    validate: schemaResolver(gatewayStepSchema, { sync: true }),
    validateInputOnChange: true,
  });
  return (
    <form noValidate onSubmit={form.onSubmit(onNext)}>
      <StepFrame
        title={t('apis.wizard.gateway.title')}
        hint={t('apis.wizard.gateway.hint')}
        actions={
          <>
            <Button variant="default" onClick={onPrevious}>
              {t('apis.wizard.previous')}
            </Button>
            <Button type="submit">{t('apis.wizard.next')}</Button>
          </>
        }
      >
        <TextInput
          label={t('apis.fields.endpoint')}
          placeholder="https://backend.example.com/v1"
          withAsterisk
          data-autofocus
          {...translatedInput(form.getInputProps('endpoint'), t)}
        />
      </StepFrame>
    </form>
  );
}

export const EMPTY_PLAN: PlanStepValues = {
  name: '',
  security: 'KEY_LESS',
  description: '',
  rateLimit: { limit: '', periodTime: '', periodTimeUnit: null },
  quota: { limit: '', periodTime: '', periodTimeUnit: null },
  paths: [{ pattern: '', methods: [] }],
};

/** Step 3, Plan (optional): name, security, description, rate limit, quota, path authorization. */
export function PlanStep({
  initial,
  onPrevious,
  onSkip,
  onNext,
}: {
  initial: PlanStepValues;
  onPrevious: () => void;
  onSkip: () => void;
  onNext: (values: PlanStepValues) => void;
}) {
  const { t } = useTranslation();
  const form = useForm<PlanStepValues>({
    initialValues: initial,
    validate: schemaResolver(planStepSchema, { sync: true }),
    validateInputOnChange: true,
  });
  const unit = (path: string, units: string[]) => (
    <Select
      label={t('apis.wizard.plan.periodUnit')}
      data={units.map((value) => ({ value, label: t(`apis.units.${value}` as TranslationKey) }))}
      clearable
      {...translatedInput(form.getInputProps(path), t)}
    />
  );
  return (
    <form noValidate onSubmit={form.onSubmit(onNext)}>
      <StepFrame
        title={t('apis.wizard.plan.title')}
        hint={t('apis.wizard.plan.hint')}
        actions={
          <>
            <Button variant="default" onClick={onPrevious}>
              {t('apis.wizard.previous')}
            </Button>
            <Group gap="sm">
              <Button variant="subtle" onClick={onSkip}>
                {t('apis.wizard.skip')}
              </Button>
              <Button type="submit">{t('apis.wizard.next')}</Button>
            </Group>
          </>
        }
      >
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t('apis.wizard.plan.name')}
            withAsterisk
            data-autofocus
            {...translatedInput(form.getInputProps('name'), t)}
          />
          <Select
            label={t('apis.wizard.plan.security')}
            withAsterisk
            allowDeselect={false}
            data={[
              { value: 'KEY_LESS', label: t('apis.security.KEY_LESS') },
              { value: 'API_KEY', label: t('apis.security.API_KEY') },
            ]}
            {...translatedInput(form.getInputProps('security'), t)}
          />
        </SimpleGrid>
        <Textarea
          label={t('apis.fields.description')}
          withAsterisk
          autosize
          minRows={2}
          {...translatedInput(form.getInputProps('description'), t)}
        />
        <Fieldset title={t('apis.wizard.plan.rateLimit')} hint={t('apis.wizard.plan.limitHint')}>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <NumberInput
              label={t('apis.wizard.plan.limit')}
              min={0}
              allowDecimal={false}
              {...translatedInput(form.getInputProps('rateLimit.limit'), t)}
            />
            <NumberInput
              label={t('apis.wizard.plan.periodTime')}
              min={1}
              allowDecimal={false}
              {...translatedInput(form.getInputProps('rateLimit.periodTime'), t)}
            />
            {unit('rateLimit.periodTimeUnit', ['SECONDS', 'MINUTES'])}
          </SimpleGrid>
        </Fieldset>
        <Fieldset title={t('apis.wizard.plan.quota')} hint={t('apis.wizard.plan.limitHint')}>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <NumberInput
              label={t('apis.wizard.plan.limit')}
              min={0}
              allowDecimal={false}
              {...translatedInput(form.getInputProps('quota.limit'), t)}
            />
            <NumberInput
              label={t('apis.wizard.plan.periodTime')}
              min={1}
              allowDecimal={false}
              {...translatedInput(form.getInputProps('quota.periodTime'), t)}
            />
            {unit('quota.periodTimeUnit', ['HOURS', 'DAYS', 'WEEKS', 'MONTHS'])}
          </SimpleGrid>
        </Fieldset>
        <Fieldset
          title={t('apis.wizard.plan.pathAuthorization')}
          hint={t('apis.wizard.plan.pathAuthorizationHint')}
        >
          <Stack gap="xs">
            {form.values.paths.map((_, index) => (
              <Group key={index} align="flex-end" wrap="nowrap" gap="sm">
                <TextInput
                  label={t('apis.wizard.plan.pattern')}
                  placeholder="/orders/**"
                  styles={CODE_INPUT_STYLES}
                  flex={1}
                  {...form.getInputProps(`paths.${index}.pattern`)}
                />
                <MultiSelect
                  label={t('apis.wizard.plan.methods')}
                  placeholder={t('apis.wizard.plan.allMethods')}
                  data={HTTP_METHODS}
                  flex={1}
                  {...form.getInputProps(`paths.${index}.methods`)}
                />
                <ActionIcon
                  variant="subtle"
                  color="red"
                  size="lg"
                  mb={2}
                  aria-label={t('apis.wizard.plan.removePath')}
                  onClick={() => form.removeListItem('paths', index)}
                >
                  <IconTrash size={18} />
                </ActionIcon>
              </Group>
            ))}
            <Group>
              <Button
                variant="light"
                size="xs"
                leftSection={<IconPlus size={14} />}
                onClick={() => form.insertListItem('paths', { pattern: '', methods: [] })}
              >
                {t('apis.wizard.plan.addPath')}
              </Button>
            </Group>
          </Stack>
        </Fieldset>
      </StepFrame>
    </form>
  );
}

function Fieldset({ title, hint, children }: { title: string; hint: string; children: ReactNode }) {
  return (
    <Stack gap="xs" component="fieldset" style={{ border: 0, padding: 0, margin: 0 }}>
      <div>
        <Text component="legend" fw={600} size="sm">
          {title}
        </Text>
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      </div>
      {children}
    </Stack>
  );
}

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
