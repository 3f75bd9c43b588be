import type { TranslationKey } from '../../../../shared/i18n/keys';
import {
  ActionIcon,
  Button,
  Group,
  MultiSelect,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { translatedInput } from '../../../../shared/ui/translated-input';
import type { PlanStepValues } from '../../rules';
import { planStepSchema } from '../../rules';
import { CODE_INPUT_STYLES } from '../../../../shared/ui/code-input';
import { HTTP_METHODS, StepFrame } from './wizard-steps';

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
