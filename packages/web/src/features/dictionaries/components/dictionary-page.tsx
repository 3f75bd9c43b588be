import {
  Anchor,
  Button,
  Center,
  Group,
  Loader,
  NumberInput,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { DICTIONARY_NAME_MAX } from '@portico/model';
import { useSession } from '../../../shared/session/current-user';
import { hasPermission } from '../../../shared/session/permissions';
import { notifySuccess } from '../../../shared/ui/notify';
import { translatedInput } from '../../../shared/ui/translated-input';
import type { Dictionary } from '../api/dictionaries';
import { useCreateDictionary, useDictionary, useUpdateDictionary } from '../api/dictionaries';
import type { DictionaryFormValues } from '../dictionary-rules';
import { dictionarySchema, formValues, toInput } from '../dictionary-rules';
import { DictionaryActions } from './dictionary-actions';
import { DictionaryProperties } from './dictionary-properties';

const LIST = '/management/settings/dictionaries';
const UNITS = ['SECONDS', 'MINUTES', 'HOURS'] as const;

/** /settings/dictionaries/new and /settings/dictionaries/{dictionaryId} (2.3). */
export function DictionaryPage() {
  const { t } = useTranslation();
  const { dictionaryId } = useParams();
  const dictionary = useDictionary(dictionaryId);
  return (
    <Stack gap="lg">
      <Anchor component={Link} to={LIST} size="sm" w="fit-content">
        <Group gap={4}>
          <IconArrowLeft size={16} aria-hidden />
          {t('dictionaries.back')}
        </Group>
      </Anchor>
      {dictionaryId && dictionary.isPending ? (
        <Center py="xl">
          <Loader aria-label={t('common.loading')} />
        </Center>
      ) : dictionaryId && !dictionary.data ? null : (
        // Each answer of the server gives a fresh form (updated_at moves with every change).
        <DictionaryForm key={dictionary.data?.updated_at ?? 'new'} dictionary={dictionary.data} />
      )}
    </Stack>
  );
}

function DictionaryForm({ dictionary }: { dictionary: Dictionary | undefined }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useSession();
  const create = useCreateDictionary();
  const update = useUpdateDictionary(dictionary?.id ?? '');
  const editing = dictionary !== undefined;
  const canSave = hasPermission(user, editing ? 'management-dictionary-u' : 'management-dictionary-c');
  const form = useForm<DictionaryFormValues>({
    initialValues: formValues(dictionary),
    validate: schemaResolver(dictionarySchema, { sync: true }),
    validateInputOnChange: true,
  });
  const dynamic = form.values.type === 'DYNAMIC';
  const save = form.onSubmit((values) => {
    const input = toInput(values);
    if (!editing)
      create.mutate(input, {
        onSuccess: (d) => {
          notifySuccess('dictionaries.created', { name: d.name });
          void navigate(`${LIST}/${encodeURIComponent(d.id)}`);
        },
      });
    else update.mutate(input, { onSuccess: (d) => notifySuccess('dictionaries.saved', { name: d.name }) });
  });
  const input = (field: keyof DictionaryFormValues) => translatedInput(form.getInputProps(field), t);

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2} size="h3">
            {dictionary?.name ?? t('dictionaries.newTitle')}
          </Title>
          {dictionary && (
            <Text size="sm" c="dimmed" ff="monospace">
              {dictionary.id}
            </Text>
          )}
        </div>
      </Group>
      {dictionary && (
        <DictionaryActions
          dictionary={dictionary}
          canUpdate={hasPermission(user, 'management-dictionary-u')}
          canDelete={hasPermission(user, 'management-dictionary-d')}
          dirty={form.isDirty()}
        />
      )}
      <form noValidate onSubmit={save}>
        <Stack gap="lg">
          <Paper withBorder radius="md" p="md">
            <Stack gap="md">
              <Title order={3} size="h4">
                {t('dictionaries.general')}
              </Title>
              <TextInput
                label={t('dictionaries.name')}
                withAsterisk
                maxLength={DICTIONARY_NAME_MAX + 10}
                readOnly={!canSave}
                {...input('name')}
              />
              <Textarea
                label={t('dictionaries.description')}
                autosize
                minRows={2}
                readOnly={!canSave}
                {...input('description')}
              />
              <div>
                <Text size="sm" fw={500} mb={4} id="dictionary-type-label">
                  {t('dictionaries.type')}
                </Text>
                <SegmentedControl
                  aria-labelledby="dictionary-type-label"
                  disabled={editing || !canSave}
                  data={[
                    { value: 'MANUAL', label: t('dictionaries.types.MANUAL') },
                    { value: 'DYNAMIC', label: t('dictionaries.types.DYNAMIC') },
                  ]}
                  value={form.values.type}
                  onChange={(v) => form.setFieldValue('type', v as DictionaryFormValues['type'])}
                />
                {editing && (
                  <Text size="xs" c="dimmed" mt={4}>
                    {t('dictionaries.typeFixed')}
                  </Text>
                )}
              </div>
            </Stack>
          </Paper>
          {dynamic && (
            <Paper withBorder radius="md" p="md">
              <Stack gap="md">
                <Title order={3} size="h4">
                  {t('dictionaries.trigger')}
                </Title>
                <Group align="flex-end" gap="sm">
                  <NumberInput
                    label={t('dictionaries.rate')}
                    description={t('dictionaries.triggerHint')}
                    withAsterisk
                    min={1}
                    allowDecimal={false}
                    w={200}
                    readOnly={!canSave}
                    {...input('rate')}
                  />
                  <Select
                    label={t('dictionaries.unit')}
                    w={160}
                    allowDeselect={false}
                    readOnly={!canSave}
                    data={UNITS.map((u) => ({ value: u, label: t(`dictionaries.units.${u}`) }))}
                    {...form.getInputProps('unit')}
                  />
                </Group>
                <Title order={3} size="h4">
                  {t('dictionaries.provider')}
                </Title>
                <Select label={t('dictionaries.providerType')} data={['HTTP']} value="HTTP" readOnly />
                <TextInput
                  label={t('dictionaries.url')}
                  description={t('dictionaries.urlHint')}
                  withAsterisk
                  placeholder="https://config.example.com/properties"
                  readOnly={!canSave}
                  {...input('url')}
                />
                <Textarea
                  label={t('dictionaries.specification')}
                  description={t('dictionaries.specificationHint')}
                  withAsterisk
                  autosize
                  minRows={4}
                  styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
                  readOnly={!canSave}
                  {...input('specification')}
                />
              </Stack>
            </Paper>
          )}
          {editing && (
            <DictionaryProperties
              properties={form.values.properties}
              manual={!dynamic}
              editable={canSave}
              error={
                Object.entries(form.errors).find(([k]) => k.startsWith('properties'))?.[1] as
                  string | undefined
              }
              onChange={(p) => form.setFieldValue('properties', p)}
            />
          )}
          {canSave && (
            <Group justify="flex-end" gap="sm">
              {editing && (
                <Button variant="default" onClick={() => form.reset()} disabled={!form.isDirty()}>
                  {t('dictionaries.reset')}
                </Button>
              )}
              <Button
                type="submit"
                loading={create.isPending || update.isPending}
                disabled={!form.isValid() || !form.isDirty()}
              >
                {editing ? t('dictionaries.save') : t('dictionaries.create')}
              </Button>
            </Group>
          )}
        </Stack>
      </form>
    </Stack>
  );
}
