import { Button, Group, Paper, SimpleGrid, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { isHttpError } from '../../../../shared/http';
import { translatedInput } from '../../../../shared/ui/translated-input';
import { verifyContextPath } from '../../api/create-api';
import { gatewayStepSchema, generalStepSchema } from '../../rules';
import { CODE_INPUT_STYLES } from '../../../../shared/ui/code-input';

export type GeneralValues = z.input<typeof generalStepSchema>;
export type GatewayValues = z.input<typeof gatewayStepSchema>;

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'PATCH', 'OPTIONS', 'TRACE', 'CONNECT'];

/** The frame of a step: its title, its fields, and its buttons. */
export function StepFrame({
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
