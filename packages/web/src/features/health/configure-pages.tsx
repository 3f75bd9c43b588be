import { Anchor, Button, Group, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import type { HealthCheckService } from '@portico/model';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { HealthCheckForm } from './health-check-form';
import { checkProblems, cleanCheck, editableCheck } from './health-check-model';
import { useHealthConfig } from './use-health-config';

function SaveBar({ canSave, saving }: { canSave: boolean; saving: boolean }) {
  const { t } = useTranslation();
  return (
    <Group>
      <Button type="submit" disabled={!canSave} loading={saving}>
        {t('apiHealth.form.save')}
      </Button>
    </Group>
  );
}

/** `/proxy/healthcheck/configure` (console-apis.md 2.5): the API-level check, used by inheriting endpoints. */
export function ConfigurePage() {
  const { t } = useTranslation();
  const { api, base, canUpdate, saving, save } = useHealthConfig();
  const [check, setCheck] = useState<HealthCheckService>(() => editableCheck(api.services['health-check']));
  const problems = checkProblems(check);
  const valid = Object.keys(problems).length === 0;
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (valid && canUpdate)
          save({ services: { ...api.services, 'health-check': cleanCheck(check) } }, 'apiHealth.savedGlobal');
      }}
    >
      <Stack gap="lg">
        <Anchor component={Link} to={`${base}/proxy/healthcheck`} size="sm">
          {t('apiHealth.backToDashboard')}
        </Anchor>
        <Title order={2} size="h3">
          {t('apiHealth.configure.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('apiHealth.configure.intro')}
        </Text>
        <Paper withBorder p="md">
          <HealthCheckForm value={check} problems={problems} readOnly={!canUpdate} onChange={setCheck} />
        </Paper>
        {canUpdate && <SaveBar canSave={valid} saving={saving} />}
      </Stack>
    </form>
  );
}

/**
 * `/proxy/groups/{group}/endpoints/{endpoint}/healthcheck` (console-apis.md 2.5): the endpoint inherits
 * the API-level check, or has its own; a back link to the endpoint.
 */
export function EndpointHealthPage() {
  const { t } = useTranslation();
  const { groupName = '', endpointName = '' } = useParams();
  const { api, base, canUpdate, saving, save } = useHealthConfig();
  const groupIndex = api.proxy.groups.findIndex((g) => g.name === groupName);
  const endpointIndex =
    api.proxy.groups[groupIndex]?.endpoints.findIndex((e) => e.name === endpointName) ?? -1;
  const saved = api.proxy.groups[groupIndex]?.endpoints[endpointIndex]?.healthcheck;
  const [inherit, setInherit] = useState(saved?.inherit !== false);
  const [check, setCheck] = useState<HealthCheckService>(() =>
    editableCheck(saved?.inherit === false ? saved : api.services['health-check']),
  );
  const back = `${base}/proxy/groups/${encodeURIComponent(groupName)}/endpoints/${encodeURIComponent(endpointName)}`;
  if (endpointIndex < 0)
    return (
      <Stack gap="sm" role="alert">
        <Text>{t('apiHealth.endpoint.notFound')}</Text>
        <Anchor component={Link} to={`${base}/proxy/endpoints`}>
          {t('apiProxy.endpoints.back')}
        </Anchor>
      </Stack>
    );
  const problems = inherit ? {} : checkProblems(check);
  const valid = Object.keys(problems).length === 0;
  const apiCheckOn = api.services['health-check']?.enabled === true;
  const onSave = () => {
    const proxy = structuredClone(api.proxy);
    const endpoint = proxy.groups[groupIndex]!.endpoints[endpointIndex]!;
    endpoint.healthcheck = inherit
      ? { enabled: true, inherit: true }
      : { ...cleanCheck(check), inherit: false };
    save({ proxy }, 'apiHealth.savedEndpoint');
  };
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (valid && canUpdate) onSave();
      }}
    >
      <Stack gap="lg">
        <Anchor component={Link} to={back} size="sm">
          {t('apiHealth.endpoint.back', { name: endpointName })}
        </Anchor>
        <Title order={2} size="h3">
          {t('apiHealth.endpoint.title', { name: endpointName })}
        </Title>
        <Paper withBorder p="md">
          <Stack gap="md">
            <Switch
              label={t('apiHealth.endpoint.inherit')}
              disabled={!canUpdate}
              checked={inherit}
              onChange={(e) => setInherit(e.currentTarget.checked)}
            />
            {inherit ? (
              <Text size="sm" c="dimmed">
                {apiCheckOn ? t('apiHealth.endpoint.inherited') : t('apiHealth.endpoint.inheritedOff')}
              </Text>
            ) : (
              <HealthCheckForm value={check} problems={problems} readOnly={!canUpdate} onChange={setCheck} />
            )}
          </Stack>
        </Paper>
        {canUpdate && <SaveBar canSave={valid} saving={saving} />}
      </Stack>
    </form>
  );
}
