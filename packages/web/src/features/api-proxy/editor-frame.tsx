import { Anchor, Button, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { http } from '../../shared/http';

/** `GET configuration/tenants`: the tenants an endpoint may be restricted to. */
export const useTenants = () =>
  useQuery({
    queryKey: ['configuration', 'tenants'],
    queryFn: ({ signal }) => http.get<{ id: string; name: string }[]>('configuration/tenants', { signal }),
    staleTime: 5 * 60_000,
  });

/** A further tab of an editor (the group's Service Discovery, an endpoint's health check). */
export interface EditorTab {
  value: string;
  label: string;
  panel: ReactNode;
}

/**
 * The frame of the endpoint and group editors: back link, title, General and HTTP configuration tabs,
 * then the `tabs` given, Save.
 */
export function EditorFrame({
  back,
  title,
  general,
  httpConfig,
  tabs = [],
  canSave,
  saving,
  readOnly,
  onSave,
}: {
  back: string;
  title: string;
  general: ReactNode;
  httpConfig: ReactNode;
  tabs?: readonly EditorTab[];
  canSave: boolean;
  saving: boolean;
  readOnly: boolean;
  onSave: () => void;
}) {
  const { t } = useTranslation();
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (canSave) onSave();
      }}
    >
      <Stack gap="lg">
        <Anchor component={Link} to={back} size="sm">
          {t('apiProxy.endpoints.back')}
        </Anchor>
        <Title order={2} size="h3">
          {title}
        </Title>
        <Tabs defaultValue="general" keepMounted={false}>
          <Tabs.List>
            <Tabs.Tab value="general">{t('apiProxy.editor.general')}</Tabs.Tab>
            <Tabs.Tab value="http">{t('apiProxy.editor.http')}</Tabs.Tab>
            {tabs.map((tab) => (
              <Tabs.Tab key={tab.value} value={tab.value}>
                {tab.label}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          <Tabs.Panel value="general" pt="md">
            {general}
          </Tabs.Panel>
          <Tabs.Panel value="http" pt="md">
            {httpConfig}
          </Tabs.Panel>
          {tabs.map((tab) => (
            <Tabs.Panel key={tab.value} value={tab.value} pt="md">
              {tab.panel}
            </Tabs.Panel>
          ))}
        </Tabs>
        {!readOnly && (
          <Group>
            <Button type="submit" disabled={!canSave} loading={saving}>
              {t('apiProxy.editor.save')}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}

/** A group or endpoint named in the route that the API does not hold. */
export function NotFound({ back }: { back: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" role="alert">
      <Text fw={600}>{t('apiProxy.editor.notFound')}</Text>
      <Anchor component={Link} to={back}>
        {t('apiProxy.endpoints.back')}
      </Anchor>
    </Stack>
  );
}
