import {
  ActionIcon,
  Button,
  Checkbox,
  Group,
  Modal,
  Pagination,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DICTIONARY_PROPERTY_PAGE_SIZES, DICTIONARY_PROPERTY_VALUE_MAX } from '@portico/model';
import { translatedInput } from '../../../shared/ui/translated-input';
import { propertySchema } from '../dictionary-rules';
import { DialogForm } from '../../../shared/ui/dialog-form';

/**
 * The properties of a dictionary (2.3): paged 10/25/50/75/100, select-all, values edited in place,
 * per-row delete and an add dialog for manual dictionaries. Changes go to the form; Save keeps them.
 */
export function DictionaryProperties({
  properties,
  manual,
  editable,
  error,
  onChange,
}: {
  properties: Record<string, string>;
  manual: boolean;
  editable: boolean;
  error?: string | undefined;
  /** Takes a change of the properties as it stands when it applies, not as last rendered. */
  onChange: (change: (properties: Record<string, string>) => Record<string, string>) => void;
}) {
  const { t } = useTranslation();
  const [pageSize, setPageSize] = useState<number>(DICTIONARY_PROPERTY_PAGE_SIZES[0]);
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [adding, setAdding] = useState(false);
  const keys = Object.keys(properties).sort((a, b) => a.localeCompare(b));
  const pages = Math.max(1, Math.ceil(keys.length / pageSize));
  const current = Math.min(page, pages);
  const shown = keys.slice((current - 1) * pageSize, current * pageSize);
  const allShown = shown.length > 0 && shown.every((k) => selected.has(k));
  const removable = manual && editable;

  const remove = (gone: string[]) => {
    onChange((current) => Object.fromEntries(Object.entries(current).filter(([k]) => !gone.includes(k))));
    setSelected(new Set([...selected].filter((k) => !gone.includes(k))));
  };
  const toggle = (key: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(key);
    else next.delete(key);
    setSelected(next);
  };

  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-end">
          <div>
            <Title order={3} size="h4">
              {t('dictionaries.properties.title')}
            </Title>
            <Text size="sm" c="dimmed">
              {manual ? t('dictionaries.properties.unsaved') : t('dictionaries.properties.dynamicHint')}
            </Text>
          </div>
          <Group gap="sm">
            {removable && selected.size > 0 && (
              <Button
                variant="light"
                color="red"
                leftSection={<IconTrash size={16} />}
                onClick={() => remove([...selected])}
              >
                {t('dictionaries.properties.removeSelected')}
              </Button>
            )}
            {removable && (
              <Button variant="light" leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
                {t('dictionaries.properties.add')}
              </Button>
            )}
          </Group>
        </Group>
        {error && (
          <Text size="sm" c="red" role="alert">
            {t(error as 'dictionaries.errors.valueTooLong')}
          </Text>
        )}
        <Table.ScrollContainer minWidth={480}>
          <Table verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={40}>
                  <Checkbox
                    aria-label={t('dictionaries.properties.selectAll')}
                    checked={allShown}
                    indeterminate={!allShown && shown.some((k) => selected.has(k))}
                    disabled={shown.length === 0}
                    onChange={(e) => {
                      const next = new Set(selected);
                      for (const k of shown) {
                        if (e.currentTarget.checked) next.add(k);
                        else next.delete(k);
                      }
                      setSelected(next);
                    }}
                  />
                </Table.Th>
                <Table.Th>{t('dictionaries.properties.key')}</Table.Th>
                <Table.Th>{t('dictionaries.properties.value')}</Table.Th>
                {removable && <Table.Th w={48} />}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {shown.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={4}>
                    <Text size="sm" c="dimmed" ta="center" py="sm">
                      {t('dictionaries.properties.empty')}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              )}
              {shown.map((key) => (
                <Table.Tr key={key}>
                  <Table.Td>
                    <Checkbox
                      aria-label={t('dictionaries.properties.select', { key })}
                      checked={selected.has(key)}
                      onChange={(e) => toggle(key, e.currentTarget.checked)}
                    />
                  </Table.Td>
                  <Table.Td ff="monospace" fz="sm">
                    {key}
                  </Table.Td>
                  <Table.Td>
                    <TextInput
                      size="xs"
                      aria-label={t('dictionaries.properties.valueOf', { key })}
                      value={properties[key] ?? ''}
                      readOnly={!editable}
                      maxLength={DICTIONARY_PROPERTY_VALUE_MAX}
                      onChange={(e) => {
                        const value = e.currentTarget.value;
                        onChange((current) => ({ ...current, [key]: value }));
                      }}
                    />
                  </Table.Td>
                  {removable && (
                    <Table.Td>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={t('dictionaries.properties.remove', { key })}
                        onClick={() => remove([key])}
                      >
                        <IconTrash size={18} />
                      </ActionIcon>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <Group justify="space-between">
          <Group gap="xs">
            <Text size="sm" c="dimmed" id="dictionary-page-size">
              {t('dictionaries.properties.pageSize')}
            </Text>
            <Select
              size="xs"
              w={80}
              aria-labelledby="dictionary-page-size"
              data={DICTIONARY_PROPERTY_PAGE_SIZES.map((n) => String(n))}
              value={String(pageSize)}
              allowDeselect={false}
              onChange={(v) => {
                setPageSize(Number(v ?? DICTIONARY_PROPERTY_PAGE_SIZES[0]));
                setPage(1);
              }}
            />
          </Group>
          {pages > 1 && <Pagination size="sm" total={pages} value={current} onChange={setPage} />}
        </Group>
      </Stack>
      {adding && (
        <AddPropertyDialog
          existing={properties}
          onClose={() => setAdding(false)}
          onAdd={(key, value) => {
            onChange((current) => ({ ...current, [key]: value }));
            setAdding(false);
          }}
        />
      )}
    </Paper>
  );
}

function AddPropertyDialog({
  existing,
  onAdd,
  onClose,
}: {
  existing: Record<string, string>;
  onAdd: (key: string, value: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const form = useForm({
    initialValues: { key: '', value: '' },
    validate: schemaResolver(propertySchema, { sync: true }),
    validateInputOnChange: true,
  });
  const taken = Object.hasOwn(existing, form.values.key.trim());
  return (
    <Modal opened onClose={onClose} title={t('dictionaries.properties.addTitle')} centered>
      <DialogForm
        noValidate
        onSubmit={form.onSubmit((v) => {
          if (!taken) onAdd(v.key.trim(), v.value);
        })}
      >
        <Stack gap="md">
          <TextInput
            label={t('dictionaries.properties.key')}
            withAsterisk
            data-autofocus
            {...translatedInput(form.getInputProps('key'), t)}
            error={
              taken
                ? t('dictionaries.properties.exists')
                : translatedInput(form.getInputProps('key'), t).error
            }
          />
          <TextInput
            label={t('dictionaries.properties.value')}
            withAsterisk
            {...translatedInput(form.getInputProps('value'), t)}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('dictionaries.cancel')}
            </Button>
            <Button type="submit" disabled={!form.isValid() || taken}>
              {t('dictionaries.properties.add')}
            </Button>
          </Group>
        </Stack>
      </DialogForm>
    </Modal>
  );
}
