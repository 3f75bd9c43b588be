import {
  MultiSelect,
  SegmentedControl,
  Stack,
  Switch,
  TagsInput,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { useGroups } from '../../api/plans';
import { PLAN_COMMENT_MESSAGE_MAX, PLAN_NAME_MAX } from '../../rules';
import type { PlanFormValues } from './plan-form';

/** Define: name, description, characteristics, subscription options and excluded groups. */
export function DefineStep({
  form,
  errorOf,
  mode,
}: {
  form: UseFormReturnType<PlanFormValues>;
  errorOf: (field: string) => string | undefined;
  mode: 'create' | 'edit';
}) {
  const { t } = useTranslation();
  const groups = useGroups();
  const values = form.getValues();
  const keyless = values.security === 'KEY_LESS';
  const input = (field: 'name' | 'description' | 'comment_message') => ({
    ...form.getInputProps(field),
    error: errorOf(field),
  });
  const groupOptions = [
    ...new Map([
      ...(groups.data ?? []).map((g) => [g.id, g.name] as const),
      ...values.excluded_groups
        .filter((id) => !groups.data?.some((g) => g.id === id))
        .map((id) => [id, id] as const),
    ]),
  ].map(([value, label]) => ({ value, label }));

  return (
    <Stack gap="md">
      <TextInput
        label={t('plans.fields.name')}
        description={mode === 'create' ? t('plans.fields.nameHint') : undefined}
        required
        maxLength={PLAN_NAME_MAX}
        data-autofocus
        {...input('name')}
      />
      <Textarea
        label={t('plans.fields.description')}
        required
        autosize
        minRows={2}
        {...input('description')}
      />
      <TagsInput
        label={t('plans.fields.characteristics')}
        description={t('plans.fields.characteristicsHint')}
        {...form.getInputProps('characteristics')}
      />
      <Stack gap={6}>
        <Text size="sm" fw={500} id="plan-validation-label">
          {t('plans.fields.validation')}
        </Text>
        <SegmentedControl
          aria-labelledby="plan-validation-label"
          data={[
            { value: 'AUTO', label: t('plans.validationMode.AUTO') },
            { value: 'MANUAL', label: t('plans.validationMode.MANUAL') },
          ]}
          value={keyless ? 'AUTO' : values.validation}
          onChange={(value) => form.setFieldValue('validation', value as PlanFormValues['validation'])}
          disabled={keyless}
          style={{ alignSelf: 'flex-start' }}
        />
        <Text size="xs" c="dimmed">
          {keyless ? t('plans.fields.keylessAuto') : t(`plans.validationMode.hint${values.validation}`)}
        </Text>
      </Stack>
      <Switch
        label={t('plans.fields.commentRequired')}
        description={t('plans.fields.commentRequiredHint')}
        {...form.getInputProps('comment_required', { type: 'checkbox' })}
      />
      {values.comment_required && (
        <TextInput
          label={t('plans.fields.commentMessage')}
          description={t('plans.fields.commentMessageHint', { max: PLAN_COMMENT_MESSAGE_MAX })}
          {...input('comment_message')}
        />
      )}
      {groupOptions.length > 0 && (
        <MultiSelect
          label={t('plans.fields.excludedGroups')}
          description={t('plans.fields.excludedGroupsHint')}
          data={groupOptions}
          searchable
          clearable
          {...form.getInputProps('excluded_groups')}
        />
      )}
    </Stack>
  );
}
