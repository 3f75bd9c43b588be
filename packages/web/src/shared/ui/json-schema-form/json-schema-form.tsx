import { Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TranslationKey } from '../../i18n/keys';
import type { JsonObject, JsonSchema } from './schema';
import { humanize, kindOf, resolve, validate } from './schema';
import type { FormContext } from './form-context';
import { key } from './form-context';
import { ObjectFields } from './schema-field';

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
