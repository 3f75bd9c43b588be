import {
  Alert,
  Button,
  Group,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import type { Services } from '@portico/model';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DYNAMIC_UNITS } from './design-model';
import { useApiDesign } from './use-design';

type DynamicService = NonNullable<Services['dynamic-property']>;

const EMPTY: DynamicService = {
  enabled: false,
  trigger: { rate: 5, unit: 'SECONDS' },
  provider: 'HTTP',
  configuration: { url: '', specification: '' },
};

/**
 * The dynamic-properties service (console-apis.md 2.6, 5, 9): trigger rate (min 1) and unit, the HTTP
 * provider's URL and JSONata transformation, enabled; the management scheduler polls it once deployed.
 */
export function DynamicPropertiesCard() {
  const { t } = useTranslation();
  const { api, canUpdate, saving, save } = useApiDesign();
  const saved = api.services['dynamic-property'];
  const [service, setService] = useState<DynamicService>(saved ?? EMPTY);
  const [showErrors, setShowErrors] = useState(false);
  const readOnly = !canUpdate;
  const problems = {
    rate: !Number.isInteger(service.trigger.rate) || service.trigger.rate < 1,
    url: !service.configuration.url.trim(),
    specification: !service.configuration.specification.trim(),
  };
  const valid = !problems.rate && !problems.url && !problems.specification;
  const dirty = JSON.stringify(service) !== JSON.stringify(saved ?? EMPTY);
  const error = (problem: boolean, key: 'rate' | 'url' | 'specification') =>
    showErrors && problem ? t(`apiDesign.dynamic.problems.${key}`) : undefined;

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="dynamic-properties-title">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3} size="h4" id="dynamic-properties-title">
            {t('apiDesign.dynamic.title')}
          </Title>
          <Switch
            label={t('apiDesign.dynamic.enabled')}
            checked={service.enabled}
            disabled={readOnly}
            onChange={(e) => setService({ ...service, enabled: e.currentTarget.checked })}
          />
        </Group>
        <Text size="sm" c="dimmed">
          {t('apiDesign.dynamic.hint')}
        </Text>
        {service.enabled !== (saved?.enabled ?? false) && (
          <Alert color="blue" variant="light">
            {t('apiDesign.dynamic.deployNeeded')}
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <NumberInput
            label={t('apiDesign.dynamic.rate')}
            withAsterisk
            min={1}
            allowDecimal={false}
            readOnly={readOnly}
            value={service.trigger.rate}
            onChange={(v) => setService({ ...service, trigger: { ...service.trigger, rate: Number(v) } })}
            error={error(problems.rate, 'rate')}
          />
          <Select
            label={t('apiDesign.dynamic.unit')}
            withAsterisk
            allowDeselect={false}
            readOnly={readOnly}
            data={DYNAMIC_UNITS.map((u) => ({ value: u, label: t(`schemaForm.values.${u}`) }))}
            value={service.trigger.unit}
            onChange={(u) =>
              u &&
              setService({
                ...service,
                trigger: { ...service.trigger, unit: u as DynamicService['trigger']['unit'] },
              })
            }
          />
        </SimpleGrid>
        <TextInput label={t('apiDesign.dynamic.provider')} value="HTTP" readOnly />
        <TextInput
          label={t('apiDesign.dynamic.url')}
          withAsterisk
          readOnly={readOnly}
          value={service.configuration.url}
          placeholder="https://"
          onChange={(e) =>
            setService({
              ...service,
              configuration: { ...service.configuration, url: e.currentTarget.value },
            })
          }
          error={error(problems.url, 'url')}
        />
        <Textarea
          label={t('apiDesign.dynamic.specification')}
          description={t('apiDesign.dynamic.specificationHint')}
          withAsterisk
          autosize
          minRows={4}
          readOnly={readOnly}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          value={service.configuration.specification}
          onChange={(e) =>
            setService({
              ...service,
              configuration: { ...service.configuration, specification: e.currentTarget.value },
            })
          }
          error={error(problems.specification, 'specification')}
        />
        {canUpdate && (
          <Group justify="flex-end" gap="sm">
            <Button variant="default" disabled={!dirty || saving} onClick={() => setService(saved ?? EMPTY)}>
              {t('common.reset')}
            </Button>
            <Button
              disabled={!dirty}
              loading={saving}
              onClick={() => {
                setShowErrors(true);
                if (valid)
                  save(
                    { services: { ...api.services, 'dynamic-property': service } },
                    'apiDesign.dynamic.saved',
                  );
              }}
            >
              {t('apiDesign.dynamic.save')}
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
