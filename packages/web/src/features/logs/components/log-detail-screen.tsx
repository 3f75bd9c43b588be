import { Alert, Anchor, Badge, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconArrowLeft, IconEye, IconEyeOff } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import type { TranslationKey } from '../../../shared/i18n/keys';
import type { LogDetail, LogsScope } from '../api/logs';
import { useLog } from '../api/logs';
import { formatLogDate } from '../logs-query';
import { LogSides } from './log-sides';
import { statusColor } from './logs-table';

function Field({ label, children }: { label: TranslationKey; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div>
      <Text size="xs" c="dimmed" component="dt">
        {t(label)}
      </Text>
      <Text size="sm" component="dd" m={0} style={{ overflowWrap: 'anywhere' }}>
        {children ?? '—'}
      </Text>
    </div>
  );
}

const orDash = (value: string | number | null | undefined) =>
  value === null || value === undefined || value === '' ? '—' : value;

/** The names the metadata gives, else the id. */
const named = (log: LogDetail, id: string | null) => (id ? (log.metadata[id]?.name ?? id) : '—');

function Context({
  log,
  scope,
  subscriptionHref,
}: {
  log: LogDetail;
  scope: LogsScope;
  subscriptionHref?: string;
}) {
  const gateway = log.gateway ? log.metadata[log.gateway] : undefined;
  return (
    <Paper withBorder radius="md" p="md">
      <SimpleGrid component="dl" cols={{ base: 1, sm: 2, lg: 4 }} m={0}>
        <Field label="logs.detail.fields.apiKey">{orDash(log.apiKey)}</Field>
        {log.securityToken && log.securityToken !== log.apiKey && (
          <Field label="logs.detail.fields.token">{log.securityToken}</Field>
        )}
        {scope.kind === 'application' && <Field label="logs.detail.fields.api">{named(log, log.api)}</Field>}
        <Field label="logs.detail.fields.application">{named(log, log.application)}</Field>
        <Field label="logs.detail.fields.plan">{named(log, log.plan)}</Field>
        <Field label="logs.detail.fields.user">{orDash(log.user)}</Field>
        {scope.kind === 'api' && (
          <>
            <Field label="logs.detail.fields.endpoint">{orDash(log.endpoint)}</Field>
            <Field label="logs.detail.fields.subscription">
              {log.subscription && subscriptionHref ? (
                <Anchor component={Link} to={subscriptionHref} size="sm">
                  {log.subscription}
                </Anchor>
              ) : (
                orDash(log.subscription)
              )}
            </Field>
            <Field label="logs.detail.fields.gateway">{orDash(gateway?.hostname ?? log.gateway)}</Field>
            <Field label="logs.detail.fields.remoteAddress">{orDash(log.remoteAddress)}</Field>
            <Field label="logs.detail.fields.tenant">{orDash(log.tenant)}</Field>
          </>
        )}
      </SimpleGrid>
    </Paper>
  );
}

/**
 * A log (`/logs/{logId}?timestamp&from&to&q&page&size`): the request and response summaries (response
 * time, API response time, latency as their difference, content lengths, remote IP), the context behind
 * a show/hide toggle, the error panel, and the consumer and gateway sides with headers and bodies.
 */
export function LogDetailScreen({
  scope,
  logId,
  configureHref,
  subscriptionHref,
}: {
  scope: LogsScope;
  logId: string;
  /** Shown with 'No log for this request/response' to users who may configure the logging. */
  configureHref?: string | undefined;
  subscriptionHref?: (subscriptionId: string) => string;
}) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const timestamp = Number(params.get('timestamp')) || undefined;
  const log = useLog(scope, logId, timestamp);
  const [contextShown, setContextShown] = useState(true);
  const back = new URLSearchParams(params);
  back.delete('timestamp');
  const backHref = `..${back.size > 0 ? `?${back.toString()}` : ''}`;
  const data = log.data;
  const noLog =
    data && !data.clientRequest && !data.proxyRequest && !data.clientResponse && !data.proxyResponse;

  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Anchor component={Link} to={backHref} relative="path" size="sm">
          <Group gap={4}>
            <IconArrowLeft size={16} aria-hidden />
            {t('logs.detail.back')}
          </Group>
        </Anchor>
      </Group>
      {!data ? (
        <Text c="dimmed">{log.isPending ? t('common.loading') : t('logs.detail.notFound')}</Text>
      ) : (
        <>
          <Group justify="space-between" align="center">
            <Group gap="sm">
              <Title order={2}>{t('logs.detail.title')}</Title>
              <Badge color={statusColor(data.status)} size="lg" variant="light">
                {data.status}
              </Badge>
              <Badge variant="outline" size="lg">
                {data.method}
              </Badge>
            </Group>
            <Button
              variant="subtle"
              leftSection={contextShown ? <IconEyeOff size={16} /> : <IconEye size={16} />}
              aria-expanded={contextShown}
              onClick={() => setContextShown((shown) => !shown)}
            >
              {t(contextShown ? 'logs.detail.hideContext' : 'logs.detail.showContext')}
            </Button>
          </Group>
          <Paper withBorder radius="md" p="md">
            <SimpleGrid component="dl" cols={{ base: 1, sm: 2, lg: 4 }} m={0}>
              <Field label="logs.detail.fields.date">{formatLogDate(data.timestamp)}</Field>
              <Field label="logs.detail.fields.requestId">{data.id}</Field>
              <Field label="logs.detail.fields.transactionId">{data.transactionId}</Field>
              {data.traceId && <Field label="logs.detail.fields.traceId">{data.traceId}</Field>}
              <Field label="logs.detail.fields.uri">{data.uri}</Field>
              <Field label="logs.detail.fields.responseTime">
                {t('logs.ms', { value: data.responseTime })}
              </Field>
              <Field label="logs.detail.fields.apiResponseTime">
                {t('logs.ms', { value: data.apiResponseTime })}
              </Field>
              <Field label="logs.detail.fields.latency">
                {t('logs.ms', { value: Math.max(0, data.responseTime - data.apiResponseTime) })}
              </Field>
              <Field label="logs.detail.fields.host">{orDash(data.host)}</Field>
              <Field label="logs.detail.fields.requestContentLength">
                {t('logs.bytes', { value: data.requestContentLength })}
              </Field>
              <Field label="logs.detail.fields.responseContentLength">
                {t('logs.bytes', { value: data.responseContentLength })}
              </Field>
              <Field label="logs.detail.fields.remoteAddress">{orDash(data.remoteAddress)}</Field>
            </SimpleGrid>
          </Paper>
          {contextShown && (
            <Context
              log={data}
              scope={scope}
              {...(subscriptionHref && data.subscription
                ? { subscriptionHref: subscriptionHref(data.subscription) }
                : {})}
            />
          )}
          {data.message && (
            <Alert color="red" icon={<IconAlertTriangle size={18} />} title={t('logs.detail.errorTitle')}>
              {data.message}
            </Alert>
          )}
          {noLog ? (
            <Paper withBorder radius="md" p="lg">
              <Stack align="center" gap="xs">
                <Text>{t('logs.detail.noLog')}</Text>
                {configureHref && (
                  <Anchor component={Link} to={configureHref}>
                    {t('logs.configure')}
                  </Anchor>
                )}
              </Stack>
            </Paper>
          ) : (
            <LogSides
              clientRequest={data.clientRequest}
              proxyRequest={data.proxyRequest}
              clientResponse={data.clientResponse}
              proxyResponse={data.proxyResponse}
            />
          )}
        </>
      )}
    </Stack>
  );
}
