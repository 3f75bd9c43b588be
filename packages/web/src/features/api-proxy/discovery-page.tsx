import { Anchor, Fieldset, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DiscoveryTab, discoveryProblem, discoveryToSave, useDiscoverySchemas } from './discovery-tab';
import type { Discovery } from './discovery-model';
import { discoveriesChanged, discoveriesOf, withDiscoveries } from './discovery-model';
import { SettingsFrame } from './settings-frame';
import { useApiProxy } from './use-proxy';

/**
 * `/proxy/discovery` (console-apis.md 2.5): the service discovery of every endpoint group of the API,
 * one section per group (enabled, provider, the provider's configuration form), saved together with
 * Save. Not in the side menu; the endpoints page links here. Read-only without api-definition-u (and
 * api-discovery-c, which the server asks for to change a discovery).
 */
export function DiscoveryPage() {
  const { t } = useTranslation();
  const { proxy, base, canDiscover, save, saving } = useApiProxy();
  const initial = discoveriesOf(proxy);
  const [values, setValues] = useState<(Discovery | undefined)[]>(initial);
  const schemas = useDiscoverySchemas(values.map((d) => (d?.enabled ? d.provider : undefined)));
  const readOnly = !canDiscover;
  const change = (g: number, next: Discovery) => setValues(values.map((d, i) => (i === g ? next : d)));

  return (
    <Stack gap="md">
      <Anchor component={Link} to={`${base}/proxy/endpoints`} size="sm">
        {t('apiProxy.endpoints.back')}
      </Anchor>
      <SettingsFrame
        title={t('apiProxy.discovery.title')}
        description={t('apiProxy.discovery.description')}
        readOnly={readOnly}
        dirty={discoveriesChanged(proxy, values)}
        valid={values.every((d, g) => discoveryProblem(d, schemas[g]) === undefined)}
        saving={saving}
        onReset={() => setValues(initial)}
        onSave={() => {
          const next = withDiscoveries(
            proxy,
            values.map((d, g) => discoveryToSave(d, schemas[g])),
          );
          save(next, () => setValues(discoveriesOf(next)));
        }}
      >
        {proxy.groups.map((group, g) => (
          <Fieldset
            key={group.name}
            radius="md"
            legend={
              <Text component="span" fw={600} size="sm">
                {group.name}
              </Text>
            }
          >
            <DiscoveryTab
              idPrefix={`discovery-${g}`}
              value={values[g]}
              schema={schemas[g]}
              readOnly={readOnly}
              onChange={(next) => change(g, next)}
            />
          </Fieldset>
        ))}
      </SettingsFrame>
    </Stack>
  );
}
