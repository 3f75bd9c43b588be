import {
  Fieldset,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { JsonObject, JsonSchema } from './schema';
import { kindOf, resolve, setAt } from './schema';
import { CODE_INPUT_STYLES } from '../code-input';
import type { FormContext, Path } from './form-context';
import { key } from './form-context';
import { ArrayField } from './array-field';

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

/** The fields of an object, short ones side by side, in the schema's order. */
export function ObjectFields({
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

/** One field, by the kind of its schema. */
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
          renderItem={(items, item, itemPath, onItemChange) => (
            <ObjectFields
              schema={items}
              value={item}
              path={itemPath}
              context={context}
              onChange={onItemChange}
            />
          )}
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
