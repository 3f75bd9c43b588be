import {
  ActionIcon,
  Button,
  Fieldset,
  Group,
  MultiSelect,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TagsInput,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TranslationKey } from '../../i18n/keys';
import type { JsonObject, JsonSchema } from './schema';
import { humanize, kindOf, resolve, setAt, validate } from './schema';
import { CODE_INPUT_STYLES } from '../code-input';

type Path = (string | number)[];

interface FormContext {
  disabled: boolean;
  errorOf: (path: Path) => string | undefined;
  touch: (path: Path) => void;
  label: (name: string, schema: JsonSchema) => string;
  option: (value: unknown) => string;
  idPrefix: string;
}

const key = (path: Path) => path.join('.');

/** Strings that hold a document rather than a word: a text area. */
const LONG_TEXT = new Set([
  'body',
  'content',
  'schema',
  'specification',
  'resolverParameter',
  'errorMessage',
]);

const isCompact = (name: string, schema: JsonSchema) => {
  const kind = kindOf(schema);
  if (kind === 'number' || kind === 'integer' || kind === 'enum') return true;
  return kind === 'string' && !LONG_TEXT.has(name) && (resolve(schema).maxLength ?? 0) <= 200;
};

/**
 * A form generated from a JSON schema (policy and security configurations). The value is the
 * configuration object; each change hands the whole new value to `onChange`. Problems show under their
 * field once it was changed, or all of them with `showErrors` (after a Next or a Save).
 */
export function JsonSchemaForm({
  schema,
  value,
  onChange,
  showErrors = false,
  disabled = false,
  idPrefix = 'schema',
}: {
  schema: JsonSchema;
  value: unknown;
  onChange: (value: JsonObject) => void;
  showErrors?: boolean;
  disabled?: boolean;
  idPrefix?: string;
}) {
  const { t, i18n } = useTranslation();
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const issues = useMemo(() => validate(schema, value ?? {}), [schema, value]);
  const byPath = useMemo(() => new Map(issues.map((i) => [i.path, i] as const)), [issues]);

  const context: FormContext = {
    disabled,
    idPrefix,
    touch: (path) =>
      setTouched((current) => (current.has(key(path)) ? current : new Set([...current, key(path)]))),
    errorOf: (path) => {
      const issue = byPath.get(key(path));
      if (!issue || (!showErrors && !touched.has(key(path)))) return undefined;
      return t(`schemaForm.errors.${issue.message}`, issue.values ?? {}) as string;
    },
    label: (name, field) => {
      if (field.title) return field.title;
      const known = `schemaForm.fields.${name}`;
      return i18n.exists(known) ? t(known as TranslationKey) : humanize(name);
    },
    option: (option) => {
      const known = `schemaForm.values.${String(option)}`;
      return i18n.exists(known) ? t(known as TranslationKey) : String(option);
    },
  };

  const root = resolve(schema);
  if (kindOf(root) !== 'object' || Object.keys(root.properties ?? {}).length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('schemaForm.nothingToConfigure')}
      </Text>
    );
  }
  return (
    <ObjectFields
      schema={root}
      value={(value ?? {}) as JsonObject}
      path={[]}
      context={context}
      onChange={(next) => onChange(next as JsonObject)}
    />
  );
}

function ObjectFields({
  schema,
  value,
  path,
  context,
  onChange,
}: {
  schema: JsonSchema;
  value: JsonObject;
  path: Path;
  context: FormContext;
  onChange: (value: unknown) => void;
}) {
  const required = new Set(schema.required ?? []);
  const entries = Object.entries(schema.properties ?? {});
  // Short fields side by side, the others on their own line, in the schema's order.
  const rows: { compact: boolean; names: string[] }[] = [];
  for (const [name, property] of entries) {
    const compact = isCompact(name, property);
    const last = rows[rows.length - 1];
    if (compact && last?.compact) last.names.push(name);
    else rows.push({ compact, names: [name] });
  }
  const field = (name: string) => (
    <SchemaField
      key={name}
      name={name}
      schema={schema.properties![name]!}
      value={value[name]}
      path={[...path, name]}
      required={required.has(name)}
      context={context}
      onChange={(next) => onChange(setAt(value, [name], next))}
    />
  );
  return (
    <Stack gap="sm">
      {rows.map((row) =>
        row.compact ? (
          <SimpleGrid key={row.names.join()} cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="sm">
            {row.names.map(field)}
          </SimpleGrid>
        ) : (
          field(row.names[0]!)
        ),
      )}
    </Stack>
  );
}

function SchemaField({
  name,
  schema: raw,
  value,
  path,
  required,
  context,
  onChange,
}: {
  name: string;
  schema: JsonSchema;
  value: unknown;
  path: Path;
  required: boolean;
  context: FormContext;
  onChange: (value: unknown) => void;
}) {
  const { t } = useTranslation();
  const schema = resolve(raw);
  const label = context.label(name, schema);
  const id = `${context.idPrefix}-${key(path).replace(/[^a-zA-Z0-9_-]/g, '-')}`;
  const common = {
    id,
    label,
    description: schema.description,
    required,
    disabled: context.disabled,
    error: context.errorOf(path),
    onBlur: () => context.touch(path),
  };
  const change = (next: unknown) => {
    context.touch(path);
    onChange(next);
  };

  switch (kindOf(schema)) {
    case 'object':
      return (
        <Fieldset legend={label} variant="default" disabled={context.disabled} p="sm">
          {schema.description && (
            <Text size="xs" c="dimmed" mb="xs">
              {schema.description}
            </Text>
          )}
          <ObjectFields
            schema={schema}
            value={(value ?? {}) as JsonObject}
            path={path}
            context={context}
            onChange={onChange}
          />
        </Fieldset>
      );
    case 'boolean':
      return (
        <Switch
          id={id}
          label={label}
          description={schema.description}
          disabled={context.disabled}
          checked={value === true}
          onChange={(event) => change(event.currentTarget.checked)}
        />
      );
    case 'enum':
      return (
        <Select
          {...common}
          data={schema.enum!.map((option) => ({ value: String(option), label: context.option(option) }))}
          value={value === undefined || value === null ? null : String(value)}
          allowDeselect={!required && schema.default === undefined}
          clearable={!required && schema.default === undefined}
          onChange={(next) =>
            change(next === null ? undefined : schema.enum!.find((option) => String(option) === next))
          }
        />
      );
    case 'number':
    case 'integer':
      return (
        <NumberInput
          {...common}
          min={schema.minimum ?? schema.exclusiveMinimum}
          max={
            schema.maximum !== undefined && schema.maximum < Number.MAX_SAFE_INTEGER
              ? schema.maximum
              : undefined
          }
          allowDecimal={kindOf(schema) === 'number'}
          value={typeof value === 'number' ? value : ''}
          onChange={(next) => change(typeof next === 'number' ? next : undefined)}
        />
      );
    case 'string':
      return LONG_TEXT.has(name) || (schema.maxLength ?? 0) > 200 ? (
        <Textarea
          {...common}
          autosize
          minRows={3}
          maxRows={14}
          ff={name === 'schema' || name === 'body' ? 'monospace' : undefined}
          value={typeof value === 'string' ? value : ''}
          onChange={(event) => change(event.currentTarget.value)}
        />
      ) : (
        <TextInput
          {...common}
          value={typeof value === 'string' ? value : ''}
          onChange={(event) => change(event.currentTarget.value)}
        />
      );
    case 'array':
      return (
        <ArrayField
          schema={schema}
          value={Array.isArray(value) ? value : []}
          path={path}
          common={common}
          context={context}
          onChange={change}
        />
      );
    default:
      return (
        <Textarea
          {...common}
          autosize
          minRows={2}
          styles={CODE_INPUT_STYLES}
          defaultValue={value === undefined ? '' : JSON.stringify(value, null, 2)}
          onBlur={(event) => {
            context.touch(path);
            try {
              onChange(event.currentTarget.value.trim() ? JSON.parse(event.currentTarget.value) : undefined);
            } catch {
              // Not JSON yet: the text stays as typed until it is.
            }
          }}
          placeholder={t('schemaForm.json')}
        />
      );
  }
}

function ArrayField({
  schema,
  value,
  path,
  common,
  context,
  onChange,
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
                <ObjectFields
                  schema={items}
                  value={(item ?? {}) as JsonObject}
                  path={[...path, index]}
                  context={context}
                  onChange={(next) => onChange(value.map((old, i) => (i === index ? next : old)))}
                />
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
