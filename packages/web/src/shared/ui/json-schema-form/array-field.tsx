import {
  ActionIcon,
  Button,
  Fieldset,
  Group,
  MultiSelect,
  Paper,
  Stack,
  TagsInput,
  Text,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { JsonObject, JsonSchema } from './schema';
import { kindOf, resolve } from './schema';
import type { ReactNode } from 'react';
import type { FormContext, Path } from './form-context';

/** A list: a multi-select of an enum, tags of scalars, or a fieldset per object item. */
export function ArrayField({
  schema,
  value,
  path,
  common,
  context,
  onChange,
  renderItem,
}: {
  schema: JsonSchema;
  value: unknown[];
  path: Path;
  common: {
    id: string;
    label: string;
    description?: string;
    required: boolean;
    disabled: boolean;
    error?: string;
  };
  context: FormContext;
  onChange: (value: unknown) => void;
  /** Renders the fields of one object item (the object fields of the form). */
  renderItem: (
    schema: JsonSchema,
    item: JsonObject,
    path: Path,
    onChange: (value: unknown) => void,
  ) => ReactNode;
}) {
  const { t } = useTranslation();
  const items = resolve(schema.items ?? {});
  const itemKind = kindOf(items);
  if (itemKind === 'enum') {
    return (
      <MultiSelect
        {...common}
        data={items.enum!.map((option) => ({ value: String(option), label: context.option(option) }))}
        value={value.map(String)}
        onChange={(next) => onChange(items.enum!.filter((option) => next.includes(String(option))))}
        clearable
      />
    );
  }
  if (itemKind !== 'object') {
    return (
      <TagsInput
        {...common}
        description={common.description ?? t('schemaForm.tagsHint')}
        value={value.map(String)}
        onChange={(next) =>
          onChange(itemKind === 'number' || itemKind === 'integer' ? next.map(Number) : next)
        }
      />
    );
  }
  return (
    <Fieldset legend={common.label} p="sm" disabled={common.disabled}>
      <Stack gap="sm">
        {common.description && (
          <Text size="xs" c="dimmed">
            {common.description}
          </Text>
        )}
        {value.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('schemaForm.noItem')}
          </Text>
        )}
        {value.map((item, index) => (
          <Paper key={index} withBorder p="sm" radius="sm">
            <Group align="flex-start" wrap="nowrap" gap="sm">
              <div style={{ flex: 1 }}>
                {renderItem(items, (item ?? {}) as JsonObject, [...path, index], (next) =>
                  onChange(value.map((old, i) => (i === index ? next : old))),
                )}
              </div>
              {!common.disabled && (
                <ActionIcon
                  variant="subtle"
                  color="red"
                  mt={24}
                  aria-label={t('schemaForm.removeItem', { name: common.label, number: index + 1 })}
                  onClick={() => onChange(value.filter((_, i) => i !== index))}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              )}
            </Group>
          </Paper>
        ))}
        {common.error && (
          <Text size="xs" c="red">
            {common.error}
          </Text>
        )}
        {!common.disabled && (
          <Group>
            <Button
              variant="light"
              size="xs"
              leftSection={<IconPlus size={14} />}
              aria-label={t('schemaForm.addItem', { name: common.label })}
              onClick={() => onChange([...value, defaultItem(items)])}
            >
              {t('schemaForm.add')}
            </Button>
          </Group>
        )}
      </Stack>
    </Fieldset>
  );
}

function defaultItem(items: JsonSchema): unknown {
  const out: JsonObject = {};
  for (const [name, property] of Object.entries(items.properties ?? {})) {
    const schema = resolve(property);
    if (schema.default !== undefined) out[name] = structuredClone(schema.default);
    else if (kindOf(schema) === 'array') out[name] = [];
  }
  return out;
}
