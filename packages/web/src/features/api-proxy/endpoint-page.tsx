import { MultiSelect, NumberInput, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import type { Endpoint } from '@portico/model';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import type { TranslationKey } from '../../shared/i18n/keys';
import { EditorFrame, NotFound, useTenants } from './editor-frame';
import { ENDPOINT_TABS } from './endpoint-tabs';
import { HttpConfigForm } from './http-config-form';
import type { Place } from './proxy-model';
import {
  cleanHttpConfig,
  endpointProblems,
  headerMap,
  headerPairProblems,
  headerPairs,
  placeOf,
  withEndpoint,
  withInheritance,
} from './proxy-model';
import { useApiProxy } from './use-proxy';

/**
 * `/proxy/groups/{group}/endpoints/{endpoint}` and `/proxy/groups/{group}/newendpoint` (console-apis.md
 * 2.5): the endpoint's name, target, weight, backup, tenants, and its HTTP configuration unless it
 * inherits the group's.
 */
export function EndpointPage() {
  const { groupName = '', endpointName } = useParams();
  const { proxy, base, canUpdate, save, saving } = useApiProxy();
  const back = `${base}/proxy/endpoints`;
  const place = placeOf(proxy, groupName, endpointName);
  if (!place) return <NotFound back={back} />;
  const group = proxy.groups[place.group!]!;
  const current =
    place.endpoint === undefined
      ? ({
          name: '',
          target: '',
          weight: 1,
          backup: false,
          inherit: true,
          tenants: [],
          type: 'HTTP',
        } as Endpoint)
      : group.endpoints[place.endpoint]!;
  return (
    <EndpointEditor
      key={`${groupName}/${endpointName ?? ''}`}
      initial={current}
      place={place}
      back={back}
      canUpdate={canUpdate}
      saving={saving}
      onSave={(endpoint, done) => save(withEndpoint(proxy, place, cleanHttpConfig(endpoint)), done)}
    />
  );
}

function EndpointEditor({
  initial,
  place,
  back,
  canUpdate,
  saving,
  onSave,
}: {
  initial: Endpoint;
  place: Place;
  back: string;
  canUpdate: boolean;
  saving: boolean;
  onSave: (endpoint: Endpoint, done: () => void) => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { proxy } = useApiProxy();
  const group = proxy.groups[place.group ?? 0]!;
  const tenants = useTenants();
  const [endpoint, setEndpoint] = useState<Endpoint>(initial);
  const [headers, setHeaders] = useState(() => headerPairs(initial.headers));
  const problems = {
    ...endpointProblems(proxy, place, endpoint),
    ...(endpoint.inherit ? {} : headerPairProblems(headers)),
  };
  const error = (field: string) =>
    problems[field] ? t(`apiProxy.problems.${problems[field]}` as TranslationKey) : undefined;
  const set = (change: Partial<Endpoint>) => setEndpoint({ ...endpoint, ...change });
  const readOnly = !canUpdate;
  const tenantOptions = [
    ...new Map([
      ...endpoint.tenants.map((id) => [id, id] as const),
      ...(tenants.data ?? []).map((tenant) => [tenant.id, tenant.name] as const),
    ]),
  ].map(([value, label]) => ({ value, label }));

  return (
    <EditorFrame
      back={back}
      title={
        initial.name ? t('apiProxy.endpoint.title', { name: initial.name }) : t('apiProxy.endpoint.titleNew')
      }
      readOnly={readOnly}
      saving={saving}
      canSave={Object.keys(problems).length === 0}
      onSave={() =>
        onSave(
          endpoint.inherit ? endpoint : { ...endpoint, headers: headerMap(headers) },
          () => void navigate(back),
        )
      }
      general={
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t('apiProxy.endpoint.name')}
              withAsterisk
              readOnly={readOnly}
              value={endpoint.name}
              onChange={(e) => set({ name: e.currentTarget.value })}
              error={error('name')}
            />
            <TextInput
              label={t('apiProxy.endpoint.target')}
              withAsterisk
              readOnly={readOnly}
              value={endpoint.target}
              onChange={(e) => set({ target: e.currentTarget.value })}
              error={error('target')}
            />
            <NumberInput
              label={t('apiProxy.endpoint.weight')}
              withAsterisk
              readOnly={readOnly}
              allowDecimal={false}
              min={1}
              max={99}
              clampBehavior="none"
              value={Number.isNaN(endpoint.weight) ? '' : endpoint.weight}
              onChange={(v) => set({ weight: typeof v === 'number' ? v : Number.NaN })}
              error={error('weight')}
            />
            <MultiSelect
              label={t('apiProxy.endpoint.tenants')}
              readOnly={readOnly}
              data={tenantOptions}
              value={endpoint.tenants}
              onChange={(tenantsChosen) => set({ tenants: tenantsChosen })}
            />
          </SimpleGrid>
          <Switch
            label={t('apiProxy.endpoint.backup')}
            disabled={readOnly}
            checked={endpoint.backup}
            onChange={(e) => set({ backup: e.currentTarget.checked })}
          />
        </Stack>
      }
      httpConfig={
        <Stack gap="md">
          <Switch
            label={t('apiProxy.endpoint.inherit')}
            disabled={readOnly}
            checked={endpoint.inherit}
            onChange={(e) => {
              const next = withInheritance(endpoint, group, e.currentTarget.checked);
              setEndpoint(next);
              if (!next.inherit) setHeaders(headerPairs(next.headers));
            }}
          />
          {endpoint.inherit ? (
            <Text c="dimmed" size="sm">
              {t('apiProxy.endpoint.inherited')}
            </Text>
          ) : (
            <HttpConfigForm
              value={endpoint}
              headers={headers}
              onHeadersChange={setHeaders}
              problems={problems}
              readOnly={readOnly}
              onChange={(config) => set(config)}
            />
          )}
        </Stack>
      }
      tabs={ENDPOINT_TABS.map(({ value, label, Panel }) => ({
        value,
        label: t(label),
        panel: <Panel endpoint={endpoint} place={place} readOnly={readOnly} onChange={setEndpoint} />,
      }))}
    />
  );
}
