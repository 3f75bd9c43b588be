import {
  ActionIcon,
  Button,
  Fieldset,
  Group,
  NumberInput,
  Select,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import type { HealthCheckService } from '@portico/model';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { CheckProblems } from './health-check-model';
import { HEALTH_BODY_MAX, HEALTH_METHODS, HEALTH_UNITS } from './health-check-model';

type Step = NonNullable<HealthCheckService['steps']>[number];

/**
 * The fields of a health check (console-apis.md 3 and 5): enabled, trigger (interval and unit), request
 * (method, path, from root, body for non-GET methods, headers) and the CEL assertions on the response.
 */
export function HealthCheckForm({
  value,
  problems,
  readOnly,
  onChange,
}: {
  value: HealthCheckService;
  problems: CheckProblems;
  readOnly: boolean;
  onChange: (check: HealthCheckService) => void;
}) {
  const { t } = useTranslation();
  const error = (field: string) => (problems[field] ? t(`apiHealth.problems.${problems[field]}`) : undefined);
  const step = value.steps![0]!;
  const setStep = (change: (s: Step) => Step) => onChange({ ...value, steps: [change(step)] });
  const setRequest = (change: Partial<Step['request']>) =>
    setStep((s) => ({ ...s, request: { ...s.request, ...change } }));
  const headers = step.request.headers;
  const assertions = step.response.assertions;
  const setAssertions = (next: string[]) =>
    setStep((s) => ({ ...s, response: { ...s.response, assertions: next } }));

  return (
    <Stack gap="md">
      <Switch
        label={t('apiHealth.form.enabled')}
        disabled={readOnly}
        checked={value.enabled}
        onChange={(e) => onChange({ ...value, enabled: e.currentTarget.checked })}
      />
      {value.enabled && (
        <>
          <Fieldset legend={t('apiHealth.form.trigger')}>
            <Group align="flex-start" grow>
              <NumberInput
                label={t('apiHealth.form.rate')}
                withAsterisk
                readOnly={readOnly}
                min={1}
                allowDecimal={false}
                clampBehavior="none"
                value={Number.isNaN(value.trigger!.rate) ? '' : value.trigger!.rate}
                onChange={(v) =>
                  onChange({
                    ...value,
                    trigger: { ...value.trigger!, rate: typeof v === 'number' ? v : Number.NaN },
                  })
                }
                error={error('rate')}
              />
              <Select
                label={t('apiHealth.form.unit')}
                withAsterisk
                readOnly={readOnly}
                allowDeselect={false}
                data={HEALTH_UNITS.map((u) => ({ value: u, label: t(`apiHealth.units.${u}`) }))}
                value={value.trigger!.unit}
                onChange={(u) =>
                  u &&
                  onChange({
                    ...value,
                    trigger: { ...value.trigger!, unit: u as (typeof HEALTH_UNITS)[number] },
                  })
                }
                error={error('unit')}
              />
            </Group>
          </Fieldset>
          <Fieldset legend={t('apiHealth.form.request')}>
            <Stack gap="sm">
              <Group align="flex-start" grow>
                <Select
                  label={t('apiHealth.form.method')}
                  withAsterisk
                  readOnly={readOnly}
                  allowDeselect={false}
                  data={[...HEALTH_METHODS]}
                  value={step.request.method}
                  onChange={(m) => m && setRequest({ method: m as (typeof HEALTH_METHODS)[number] })}
                  error={error('method')}
                />
                <TextInput
                  label={t('apiHealth.form.path')}
                  withAsterisk
                  readOnly={readOnly}
                  value={step.request.path}
                  onChange={(e) => setRequest({ path: e.currentTarget.value })}
                  error={error('path')}
                />
              </Group>
              <Switch
                label={t('apiHealth.form.fromRoot')}
                disabled={readOnly}
                checked={step.request.fromRoot}
                onChange={(e) => setRequest({ fromRoot: e.currentTarget.checked })}
              />
              {step.request.method !== 'GET' && (
                <Textarea
                  label={t('apiHealth.form.body')}
                  readOnly={readOnly}
                  autosize
                  minRows={3}
                  maxLength={HEALTH_BODY_MAX}
                  description={t('apiHealth.form.bodyMax', { max: HEALTH_BODY_MAX })}
                  value={step.request.body ?? ''}
                  onChange={(e) => setRequest({ body: e.currentTarget.value })}
                  error={error('body')}
                />
              )}
              <Text size="sm" fw={500}>
                {t('apiHealth.form.headers')}
              </Text>
              {headers.map((header, i) => (
                <Group key={i} align="flex-start" wrap="nowrap">
                  <TextInput
                    style={{ flex: 1 }}
                    label={t('apiHealth.form.headerName')}
                    withAsterisk
                    readOnly={readOnly}
                    value={header.name}
                    onChange={(e) => {
                      const name = e.currentTarget.value;
                      setRequest({ headers: headers.map((h, j) => (j === i ? { ...h, name } : h)) });
                    }}
                    error={error(`header.${i}.name`)}
                  />
                  <TextInput
                    style={{ flex: 1 }}
                    label={t('apiHealth.form.headerValue')}
                    withAsterisk
                    readOnly={readOnly}
                    value={header.value}
                    onChange={(e) => {
                      const v = e.currentTarget.value;
                      setRequest({ headers: headers.map((h, j) => (j === i ? { ...h, value: v } : h)) });
                    }}
                    error={error(`header.${i}.value`)}
                  />
                  {!readOnly && (
                    <ActionIcon
                      mt={28}
                      variant="subtle"
                      color="red"
                      aria-label={t('apiHealth.form.removeHeader', { name: header.name || i + 1 })}
                      onClick={() => setRequest({ headers: headers.filter((_, j) => j !== i) })}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  )}
                </Group>
              ))}
              {!readOnly && (
                <Group>
                  <Button
                    variant="light"
                    size="xs"
                    leftSection={<IconPlus size={14} />}
                    onClick={() => setRequest({ headers: [...headers, { name: '', value: '' }] })}
                  >
                    {t('apiHealth.form.addHeader')}
                  </Button>
                </Group>
              )}
            </Stack>
          </Fieldset>
          <Fieldset legend={t('apiHealth.form.assertions')}>
            <Stack gap="sm">
              <Text size="sm" c="dimmed">
                {t('apiHealth.form.assertionsHelp')}
              </Text>
              {assertions.map((assertion, i) => (
                <Group key={i} align="flex-start" wrap="nowrap">
                  <TextInput
                    style={{ flex: 1 }}
                    label={t('apiHealth.form.assertion', { n: i + 1 })}
                    withAsterisk
                    readOnly={readOnly}
                    ff="monospace"
                    value={assertion}
                    onChange={(e) => {
                      const text = e.currentTarget.value;
                      setAssertions(assertions.map((a, j) => (j === i ? text : a)));
                    }}
                    error={error(`assertion.${i}`)}
                  />
                  {!readOnly && assertions.length > 1 && (
                    <ActionIcon
                      mt={28}
                      variant="subtle"
                      color="red"
                      aria-label={t('apiHealth.form.removeAssertion', { n: i + 1 })}
                      onClick={() => setAssertions(assertions.filter((_, j) => j !== i))}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  )}
                </Group>
              ))}
              {!readOnly && (
                <Group>
                  <Button
                    variant="light"
                    size="xs"
                    leftSection={<IconPlus size={14} />}
                    onClick={() => setAssertions([...assertions, ''])}
                  >
                    {t('apiHealth.form.addAssertion')}
                  </Button>
                </Group>
              )}
            </Stack>
          </Fieldset>
        </>
      )}
    </Stack>
  );
}
