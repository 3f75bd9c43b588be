import {
  Alert,
  Badge,
  Button,
  Center,
  Code,
  Group,
  Loader,
  Paper,
  ScrollArea,
  SegmentedControl,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { IconArrowBackUp, IconGitCompare } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Suspense, lazy, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { http } from '../../../../shared/http';
import { humanDate } from '../../../../shared/lib/dates';
import { useApiPermissions } from '../../../../shared/session/api-permissions';
import { notifySuccess } from '../../notify';
import { apiKeys } from '../../api/api-keys';
import { useRollbackApi } from '../../api/change-api';
import { apiPath, useApiEvents, useFrameApi } from '../../api/get-api';
import { useApiState } from '../../api/get-apis';
import type { Api, DeployedPayload } from '../../api/types';
import { canonicalJson } from '../../rules';
import { ConfirmDialog, ConfirmText } from '../../../../shared/ui/confirm-dialog';
import classes from './history-page.module.css';

const JsonDiff = lazy(() => import('./json-diff'));

/** One entry of the history: a deployment, or the current API not deployed yet (TO_DEPLOY). */
export interface HistoryEntry {
  id: string;
  kind: 'PUBLISH_API' | 'TO_DEPLOY';
  /** The deployment's number (1 for the first), 0 for TO_DEPLOY. */
  number: number;
  at: number;
  user: string | null;
  label: string | undefined;
  payload: DeployedPayload;
}

interface PlanJson {
  id: string;
  name: string;
  security: string;
  securityDefinition: string | null;
  status: string;
  order: number;
  paths: unknown;
}

/** The current API in the shape of a deployment's payload (what a deployment now would carry). */
export function currentPayload(api: Api, plans: PlanJson[] | undefined): DeployedPayload {
  return {
    id: api.id,
    name: api.name,
    version: api.version,
    description: api.description,
    visibility: api.visibility,
    definition: {
      id: api.id,
      name: api.name,
      version: api.version,
      tags: api.tags,
      proxy: api.proxy,
      paths: api.paths,
      properties: api.properties,
      services: api.services,
      resources: api.resources,
      path_mappings: api.path_mappings,
      response_templates: api.response_templates,
    },
    ...(plans
      ? {
          plans: plans.map((p) => ({
            id: p.id,
            name: p.name,
            security: p.security,
            securityDefinition: p.securityDefinition,
            status: p.status,
            order: p.order,
            paths: p.paths,
            tags: [],
          })),
        }
      : {}),
  };
}

const FIRST_KEYS = ['id', 'name', 'version', 'description', 'visibility'];

/**
 * What a diff compares: the deployed API without its instants and running state, keys sorted (name,
 * version, description and visibility first, then the definition and the plans).
 */
export function comparable(payload: DeployedPayload): string {
  const { deployed_at: _at, state: _state, ...rest } = payload;
  const sorted = JSON.parse(canonicalJson(rest)) as Record<string, unknown>;
  const ordered = Object.fromEntries(
    [
      ...FIRST_KEYS.filter((k) => k in sorted),
      ...Object.keys(sorted).filter((k) => !FIRST_KEYS.includes(k)),
    ].map((k) => [k, sorted[k]]),
  );
  return JSON.stringify(ordered, null, 2);
}

/** Two entries of the history, older first (the current API is the newest). */
export function olderFirst(a: HistoryEntry, b: HistoryEntry): [HistoryEntry, HistoryEntry] {
  if (a.kind === 'TO_DEPLOY') return [b, a];
  if (b.kind === 'TO_DEPLOY') return [a, b];
  return a.at <= b.at ? [a, b] : [b, a];
}

/**
 * management.apis.detail.history (`/history`): the deployments of the API, newest first, with TO_DEPLOY
 * on top when the API changed since; one entry's definition, two entries side by side (older left,
 * newer right), comparison with the latest deployment, and rollback to an entry.
 */
export function HistoryPage() {
  const { t } = useTranslation();
  const { apiId = '' } = useParams();
  const { api } = useFrameApi(apiId);
  const permissions = useApiPermissions(apiId);
  const events = useApiEvents(apiId);
  const state = useApiState(apiId);
  const plans = useQuery({
    queryKey: apiKeys.activePlans(apiId),
    queryFn: ({ signal }) =>
      http.get<PlanJson[]>(apiPath(apiId, '/plans'), {
        query: { status: 'published,deprecated' },
        signal,
        silent: true,
      }),
    retry: false,
  });
  const rollback = useRollbackApi(apiId);
  const [mode, setMode] = useState<'view' | 'diff'>('view');
  const [selected, setSelected] = useState<string[]>([]);
  const [rollingBack, setRollingBack] = useState<HistoryEntry | null>(null);

  if (events.isPending || state.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label={t('common.loading')} />
      </Center>
    );
  }

  const published = (events.data ?? []).filter(
    (e) => e.type === 'PUBLISH_API' && e.payload && typeof e.payload === 'object',
  );
  const deployments: HistoryEntry[] = published.map((e, index) => ({
    id: e.id,
    kind: 'PUBLISH_API' as const,
    number: published.length - index,
    at: e.created_at,
    user: e.user?.displayName ?? null,
    label: e.properties.deployment_label,
    payload: e.payload as DeployedPayload,
  }));
  const entries: HistoryEntry[] = [
    ...(state.data?.is_synchronized === false
      ? [
          {
            id: 'to-deploy',
            kind: 'TO_DEPLOY' as const,
            number: 0,
            at: api.updated_at,
            user: null,
            label: undefined,
            payload: currentPayload(api, plans.data),
          },
        ]
      : []),
    ...deployments,
  ];
  const byId = new Map(entries.map((e) => [e.id, e]));
  const picked = selected.map((id) => byId.get(id)).filter((e): e is HistoryEntry => !!e);
  const latest = deployments[0];
  const canRollback = permissions.has('api-definition-u');
  const version = (entry: HistoryEntry) =>
    entry.kind === 'TO_DEPLOY'
      ? t('apis.history.toDeploy')
      : t('apis.history.deployment', { number: entry.number });

  const choose = (id: string) => {
    if (mode === 'view') return setSelected([id]);
    setSelected((current) =>
      current.includes(id) ? current.filter((c) => c !== id) : [...current.slice(-1), id],
    );
  };

  const shown = picked[0];
  const pair = mode === 'diff' && picked.length === 2 ? olderFirst(picked[0]!, picked[1]!) : undefined;

  return (
    <Stack gap="lg" className={classes.page}>
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2} size="h3">
            {t('apis.history.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {mode === 'diff' ? t('apis.history.diffHint') : t('apis.history.hint')}
          </Text>
        </div>
        <SegmentedControl
          value={mode}
          onChange={(value) => {
            setMode(value as 'view' | 'diff');
            setSelected((current) => current.slice(0, 1));
          }}
          data={[
            { value: 'view', label: t('apis.history.modeView') },
            { value: 'diff', label: t('apis.history.modeDiff') },
          ]}
          aria-label={t('apis.history.mode')}
        />
      </Group>
      {entries.length === 0 ? (
        <Paper withBorder radius="md" p="xl">
          <Text c="dimmed" ta="center">
            {t('apis.history.empty')}
          </Text>
        </Paper>
      ) : (
        <div className={classes.layout}>
          <Paper withBorder radius="md" p="xs">
            <ScrollArea.Autosize mah={560}>
              <ul className={classes.list} aria-label={t('apis.history.list')}>
                {entries.map((entry) => {
                  const index = selected.indexOf(entry.id);
                  return (
                    <li key={entry.id}>
                      <UnstyledButton
                        className={classes.entry}
                        data-selected={index >= 0 || undefined}
                        aria-pressed={index >= 0}
                        onClick={() => choose(entry.id)}
                      >
                        <Group justify="space-between" wrap="nowrap" gap="xs">
                          <Text size="sm" fw={600}>
                            {version(entry)}
                          </Text>
                          {entry.kind === 'TO_DEPLOY' ? (
                            <Badge color="orange" variant="light" size="sm">
                              {t('apis.history.toDeployBadge')}
                            </Badge>
                          ) : (
                            entry.id === latest?.id && (
                              <Badge color="teal" variant="light" size="sm">
                                {t('apis.history.current')}
                              </Badge>
                            )
                          )}
                        </Group>
                        <Text size="xs" c="dimmed">
                          {entry.kind === 'TO_DEPLOY'
                            ? t('apis.history.toDeployHint')
                            : t('apis.history.by', { date: humanDate(entry.at), user: entry.user ?? '—' })}
                        </Text>
                        {entry.label && (
                          <Text size="xs" fs="italic">
                            {entry.label}
                          </Text>
                        )}
                      </UnstyledButton>
                    </li>
                  );
                })}
              </ul>
            </ScrollArea.Autosize>
          </Paper>
          <Stack gap="md">
            {mode === 'view' && shown && (
              <>
                <Group justify="space-between">
                  <Text fw={600}>{version(shown)}</Text>
                  <Group gap="sm">
                    {latest && shown.id !== latest.id && (
                      <Button
                        variant="default"
                        size="xs"
                        leftSection={<IconGitCompare size={14} />}
                        onClick={() => {
                          setMode('diff');
                          setSelected([shown.id, latest.id]);
                        }}
                      >
                        {t('apis.history.compareWithLatest')}
                      </Button>
                    )}
                    {canRollback && shown.kind === 'PUBLISH_API' && (
                      <Button
                        size="xs"
                        color="orange"
                        leftSection={<IconArrowBackUp size={14} />}
                        onClick={() => setRollingBack(shown)}
                      >
                        {t('apis.history.rollback')}
                      </Button>
                    )}
                  </Group>
                </Group>
                <Code block className={classes.code}>
                  {comparable(shown.payload)}
                </Code>
              </>
            )}
            {mode === 'view' && !shown && (
              <Alert variant="light" color="gray">
                {t('apis.history.pickOne')}
              </Alert>
            )}
            {mode === 'diff' && !pair && (
              <Alert variant="light" color="gray">
                {t('apis.history.pickTwo', { picked: picked.length })}
              </Alert>
            )}
            {pair && (
              <>
                <Group grow>
                  <Text size="sm" fw={600}>
                    {t('apis.history.older', { version: version(pair[0]) })}
                  </Text>
                  <Text size="sm" fw={600}>
                    {t('apis.history.newer', { version: version(pair[1]) })}
                  </Text>
                </Group>
                <Suspense
                  fallback={
                    <Center py="xl">
                      <Loader aria-label={t('common.loading')} />
                    </Center>
                  }
                >
                  <JsonDiff
                    left={comparable(pair[0].payload)}
                    right={comparable(pair[1].payload)}
                    leftLabel={version(pair[0])}
                    rightLabel={version(pair[1])}
                  />
                </Suspense>
              </>
            )}
          </Stack>
        </div>
      )}
      <ConfirmDialog
        opened={rollingBack !== null}
        title={t('apis.history.rollbackTitle')}
        confirmLabel={t('apis.history.rollback')}
        color="orange"
        loading={rollback.isPending}
        onClose={() => setRollingBack(null)}
        onConfirm={() =>
          rollingBack &&
          rollback.mutate(rollingBack.payload, {
            onSuccess: () => {
              notifySuccess('apis.history.rolledBack', { version: version(rollingBack) });
              setRollingBack(null);
              setSelected([]);
            },
          })
        }
      >
        <ConfirmText>
          {rollingBack && t('apis.history.rollbackQuestion', { version: version(rollingBack) })}
        </ConfirmText>
      </ConfirmDialog>
    </Stack>
  );
}
