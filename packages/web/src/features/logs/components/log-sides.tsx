import { Badge, Code, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { LogSide } from '../api/logs';
import { statusColor } from './logs-table';
import classes from './logs.module.css';

/** One side of a logged request or response: the first line, its headers and its body (as text). */
function SidePanel({
  title,
  side,
  kind,
}: {
  title: string;
  side: LogSide | null;
  kind: 'request' | 'response';
}) {
  const { t } = useTranslation();
  const headers = Object.entries(side?.headers ?? {});
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label={title}>
      <Stack gap="sm">
        <Title order={4}>{title}</Title>
        {!side ? (
          <Text c="dimmed" size="sm">
            {t('logs.detail.noLog')}
          </Text>
        ) : (
          <>
            {kind === 'request' ? (
              <Group gap="xs" wrap="nowrap" align="flex-start">
                <Badge variant="outline">{side.method}</Badge>
                <Text size="sm" className={classes.path}>
                  {side.uri}
                </Text>
              </Group>
            ) : (
              side.status !== undefined && (
                <Badge color={statusColor(side.status)} variant="light">
                  {side.status}
                </Badge>
              )
            )}
            <Text fw={600} size="sm">
              {t('logs.detail.headers')}
            </Text>
            {headers.length === 0 ? (
              <Text c="dimmed" size="sm">
                {t('logs.detail.noHeaders')}
              </Text>
            ) : (
              <Table
                aria-label={`${title} – ${t('logs.detail.headers')}`}
                withRowBorders={false}
                verticalSpacing={2}
              >
                <Table.Tbody>
                  {headers.map(([name, value]) => (
                    <Table.Tr key={name}>
                      <Table.Th scope="row" fz="xs" className={classes.nowrap}>
                        {name}
                      </Table.Th>
                      <Table.Td fz="xs" className={classes.path}>
                        {Array.isArray(value) ? value.join(', ') : value}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
            <Text fw={600} size="sm">
              {t('logs.detail.body')}
            </Text>
            {side.body ? (
              <Code
                block
                className={classes.body}
                aria-label={`${title} – ${t('logs.detail.body')}`}
                tabIndex={0}
              >
                {side.body}
              </Code>
            ) : (
              <Text c="dimmed" size="sm">
                {t('logs.detail.noBody')}
              </Text>
            )}
          </>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * The consumer-side and gateway-side request, then response, side by side (bodies shown as text, never
 * as markup); a missing side says 'No log for this request/response'.
 */
export function LogSides({
  clientRequest,
  proxyRequest,
  clientResponse,
  proxyResponse,
}: {
  clientRequest: LogSide | null;
  proxyRequest: LogSide | null;
  clientResponse: LogSide | null;
  proxyResponse: LogSide | null;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <Title order={3}>{t('logs.detail.request')}</Title>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <SidePanel title={t('logs.detail.consumerRequest')} side={clientRequest} kind="request" />
        <SidePanel title={t('logs.detail.gatewayRequest')} side={proxyRequest} kind="request" />
      </SimpleGrid>
      <Title order={3}>{t('logs.detail.response')}</Title>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <SidePanel title={t('logs.detail.consumerResponse')} side={clientResponse} kind="response" />
        <SidePanel title={t('logs.detail.gatewayResponse')} side={proxyResponse} kind="response" />
      </SimpleGrid>
    </Stack>
  );
}
