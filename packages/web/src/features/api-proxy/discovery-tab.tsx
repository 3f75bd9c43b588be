import { Select, Stack, Switch, Text } from '@mantine/core';
import { queryOptions, useQueries, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { http, isHttpError } from '../../shared/http';
import { notifyFailure } from '../../shared/ui/notify';
import type { JsonSchema } from '../../shared/ui/json-schema-form';
import { JsonSchemaForm, isValid, withDefaults } from '../../shared/ui/json-schema-form';
import type { Discovery } from './discovery-model';

/** `GET services-discovery`: the providers an endpoint group can discover its endpoints with. */
export const useDiscoveryProviders = () =>
  useQuery({
    queryKey: ['services-discovery'],
    queryFn: ({ signal }) =>
      http.get<{ id: string; name: string; description?: string }[]>('services-discovery', { signal }),
    staleTime: Infinity,
  });

/**
 * `GET services-discovery/{provider}/schema`: a 404 means an empty schema (silently); another failure
 * shows 'Unexpected error while loading service discovery schema for' the provider (console-apis.md 8).
 */
const discoverySchemaQuery = (provider: string | undefined) =>
  queryOptions({
    queryKey: ['services-discovery', 'schema', provider],
    enabled: !!provider,
    staleTime: Infinity,
    queryFn: async ({ signal }): Promise<JsonSchema> => {
      try {
        return await http.get<JsonSchema>(`services-discovery/${encodeURIComponent(provider!)}/schema`, {
          signal,
          silent: true,
        });
      } catch (error) {
        if (isHttpError(error) && error.status === 404) return { type: 'object', properties: {} };
        notifyFailure('apiProxy.discovery.schemaError', { provider: provider! });
        throw error;
      }
    },
  });

/** The schema of one provider (none while no provider is chosen). */
export const useDiscoverySchema = (provider: string | undefined) => useQuery(discoverySchemaQuery(provider));

/** The schema of each provider, in the same order (undefined where none is chosen or while loading). */
export function useDiscoverySchemas(providers: readonly (string | undefined)[]) {
  const asked = [...new Set(providers.filter((p): p is string => !!p))];
  const schemas = useQueries({
    queries: asked.map(discoverySchemaQuery),
    combine: (results) => results.map((result) => result.data),
  });
  return providers.map((p) => (p ? schemas[asked.indexOf(p)] : undefined));
}

/** Section 5: an enabled discovery needs a type and a configuration its schema accepts. */
export function discoveryProblem(
  discovery: Discovery | undefined,
  schema: JsonSchema | undefined,
): 'required' | 'schema' | undefined {
  if (!discovery?.enabled) return undefined;
  if (!discovery.provider) return 'required';
  if (!schema || !isValid(schema, withDefaults(schema, discovery.configuration ?? {}))) return 'schema';
  return undefined;
}

/**
 * The group editor's Service Discovery tab (console-apis.md 2.5): enabled (disabled when no provider
 * exists or without api-discovery-c), the provider, and the provider's configuration form from its
 * JSON schema (for Consul: URL, service, DC, ACL, trust store), its rules shown as one types.
 */
export function DiscoveryTab({
  value,
  onChange,
  readOnly,
  schema,
  idPrefix = 'discovery',
}: {
  value: Discovery | undefined;
  onChange: (next: Discovery) => void;
  readOnly: boolean;
  schema: JsonSchema | undefined;
  /** The ids of the configuration fields (unique when several groups show their discovery). */
  idPrefix?: string;
}) {
  const { t } = useTranslation();
  const providers = useDiscoveryProviders();
  const discovery: Discovery = value ?? { enabled: false };
  // Disabled while the providers load, and when none exists.
  const none = (providers.data ?? []).length === 0;
  return (
    <Stack gap="md">
      <Switch
        label={t('apiProxy.discovery.enabled')}
        disabled={readOnly || (none && !discovery.enabled)}
        checked={discovery.enabled}
        onChange={(e) => onChange({ ...discovery, enabled: e.currentTarget.checked })}
      />
      {none && providers.isSuccess && (
        <Text size="sm" c="dimmed">
          {t('apiProxy.discovery.noProvider')}
        </Text>
      )}
      {discovery.enabled && (
        <>
          <Select
            label={t('apiProxy.discovery.provider')}
            withAsterisk
            readOnly={readOnly}
            data={(providers.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
            value={discovery.provider ?? null}
            error={discovery.provider ? undefined : t('apiProxy.problems.required')}
            onChange={(provider) =>
              onChange({ enabled: true, provider: provider ?? undefined, configuration: {} })
            }
          />
          {discovery.provider && schema && (
            <JsonSchemaForm
              idPrefix={idPrefix}
              schema={schema}
              value={withDefaults(schema, discovery.configuration ?? {})}
              showErrors
              disabled={readOnly}
              onChange={(configuration) => onChange({ ...discovery, configuration })}
            />
          )}
        </>
      )}
    </Stack>
  );
}

/** The discovery as saved: the configuration with the schema's defaults the form showed. */
export function discoveryToSave(discovery: Discovery | undefined, schema: JsonSchema | undefined) {
  if (!discovery?.enabled || !schema) return discovery;
  return { ...discovery, configuration: withDefaults(schema, discovery.configuration ?? {}) };
}
