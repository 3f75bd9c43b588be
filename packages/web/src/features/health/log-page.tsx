import { Anchor, Code, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { DateText } from '../../shared/ui/date-text';
import { PageLoader } from '../../shared/ui/page-loader';
import { StateBadge } from './dashboard-page';
import type { HealthLog } from './health-api';
import { useHealthLog } from './health-api';
import classes from './health.module.css';

function Headers({ headers }: { headers: Record<string, unknown> | undefined }) {
  const { t } = useTranslation();
  const entries = Object.entries(headers ?? {});
  if (entries.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {t('apiHealth.log.noHeaders')}
      </Text>
    );
  return (
    <Table withRowBorders={false} verticalSpacing={2}>
      <Table.Tbody>
        {entries.map(([name, value]) => (
          <Table.Tr key={name}>
            <Table.Th scope="row" fw={500} w="40%">
              <Text size="xs" ff="monospace">
                {name}
              </Text>
            </Table.Th>
            <Table.Td>
              <Text size="xs" ff="monospace" className={classes.pre}>
                {Array.isArray(value) ? value.join(', ') : String(value)}
              </Text>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function Body({ body }: { body: string | null | undefined }) {
  const { t } = useTranslation();
  if (!body)
    return (
      <Text size="sm" c="dimmed">
        {t('apiHealth.log.noBody')}
      </Text>
    );
  return (
    <Code block className={classes.pre}>
      {body}
    </Code>
  );
}

function Detail({ log }: { log: HealthLog }) {
  const { t } = useTranslation();
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }}>
      <Paper withBorder p="md">
        <Stack gap="xs">
          <Title order={3} size="h4">
            {t('apiHealth.log.request')}
          </Title>
          <Text size="sm" ff="monospace" className={classes.pre}>
            {log.request.method} {log.request.uri}
          </Text>
          <Text size="sm" fw={600}>
            {t('apiHealth.log.headers')}
          </Text>
          <Headers headers={log.request.headers} />
          <Text size="sm" fw={600}>
            {t('apiHealth.log.body')}
          </Text>
          <Body body={log.request.body} />
        </Stack>
      </Paper>
      <Paper withBorder p="md">
        <Stack gap="xs">
          <Title order={3} size="h4">
            {t('apiHealth.log.response')}
          </Title>
          {log.response.status === undefined ? (
            <Text size="sm" c="dimmed">
              {t('apiHealth.log.noResponse')}
            </Text>
          ) : (
            <>
              <Text size="sm" ff="monospace">
                {t('apiHealth.log.status', { status: log.response.status })}
              </Text>
              <Text size="sm" fw={600}>
                {t('apiHealth.log.headers')}
              </Text>
              <Headers headers={log.response.headers} />
              <Text size="sm" fw={600}>
                {t('apiHealth.log.body')}
              </Text>
              <Body body={log.response.body} />
            </>
          )}
        </Stack>
      </Paper>
    </SimpleGrid>
  );
}

/** `/proxy/healthcheck/logs/{log}` (console-apis.md 2.5): one check, its request and response, a back link. */
export function HealthLogPage() {
  const { t } = useTranslation();
  const { apiId = '', logId = '' } = useParams();
  const { data, isPending, isError } = useHealthLog(apiId, logId);
  const back = `/management/apis/${encodeURIComponent(apiId)}/proxy/healthcheck`;
  return (
    <Stack gap="lg">
      <Anchor component={Link} to={back} size="sm">
        {t('apiHealth.backToDashboard')}
      </Anchor>
      <Title order={2} size="h3">
        {t('apiHealth.log.title')}
      </Title>
      {isPending && <PageLoader />}
      {isError && <Text role="alert">{t('apiHealth.log.notFound')}</Text>}
      {data && (
        <>
          <Paper withBorder p="md">
            <Group gap="xl" wrap="wrap">
              <Stack gap={2}>
                <Text size="xs" c="dimmed">
                  {t('apiHealth.logs.date')}
                </Text>
                <DateText value={data.timestamp} />
              </Stack>
              <Stack gap={2}>
                <Text size="xs" c="dimmed">
                  {t('apiHealth.logs.endpoint')}
                </Text>
                <Text size="sm">{data.endpoint}</Text>
              </Stack>
              <Stack gap={2}>
                <Text size="xs" c="dimmed">
                  {t('apiHealth.logs.state')}
                </Text>
                <StateBadge state={data.state} />
              </Stack>
              <Stack gap={2}>
                <Text size="xs" c="dimmed">
                  {t('apiHealth.logs.responseTime')}
                </Text>
                <Text size="sm">{t('apiHealth.ms', { value: data.responseTime })}</Text>
              </Stack>
            </Group>
            {data.message && (
              <Text size="sm" mt="sm" c={data.success ? undefined : 'red.9'}>
                {data.message}
              </Text>
            )}
          </Paper>
          <Detail log={data} />
        </>
      )}
    </Stack>
  );
}
