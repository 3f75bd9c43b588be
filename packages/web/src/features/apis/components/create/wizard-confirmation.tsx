import { Alert, Anchor, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconExternalLink, IconPencil } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfig } from '../../../../shared/config/config-context';
import { appUrl } from '../../../../shared/config/config';
import type { WizardPage, WizardPlan } from '../../api/create-api';
import { pageNameOf } from '../../rules';
import type { GatewayValues, GeneralValues } from './wizard-steps';

/** Step 5: each step summed up with a link back to it, the warnings, and the two ways to create. */
export function Confirmation({
  general,
  gateway,
  plan,
  pages,
  pending,
  onEdit,
  onPrevious,
  onCreate,
}: {
  general: GeneralValues;
  gateway: GatewayValues;
  plan: WizardPlan | undefined;
  pages: WizardPage[];
  pending: boolean;
  onEdit: (step: number) => void;
  onPrevious: () => void;
  onCreate: (deploy: boolean) => void;
}) {
  const { t } = useTranslation();
  const config = useConfig();
  const rows = (entries: [string, ReactNode][]) => (
    <Table variant="vertical" layout="fixed" withRowBorders={false} verticalSpacing={4}>
      <Table.Tbody>
        {entries.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Th w={200} bg="transparent">
              {label}
            </Table.Th>
            <Table.Td>{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
  return (
    <Paper withBorder radius="md" p="xl">
      <Stack gap="lg">
        <div>
          <Title order={2} size="h3">
            {t('apis.wizard.confirmation.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('apis.wizard.confirmation.hint')}
          </Text>
        </div>
        <Summary title={t('apis.wizard.steps.general')} onEdit={() => onEdit(0)}>
          {rows([
            [t('apis.fields.name'), general.name],
            [t('apis.fields.version'), general.version],
            [t('apis.fields.description'), general.description],
            [
              t('apis.fields.contextPath'),
              <Text key="cp" ff="monospace" size="sm">
                {general.context_path}
              </Text>,
            ],
          ])}
        </Summary>
        <Summary title={t('apis.wizard.steps.gateway')} onEdit={() => onEdit(1)}>
          {rows([[t('apis.fields.endpoint'), gateway.endpoint]])}
        </Summary>
        <Summary title={t('apis.wizard.steps.plan')} onEdit={() => onEdit(2)}>
          {plan ? (
            rows([
              [t('apis.wizard.plan.name'), plan.name],
              [t('apis.wizard.plan.security'), t(`apis.security.${plan.security}`)],
              [t('apis.fields.description'), plan.description],
              [
                t('apis.wizard.plan.rateLimit'),
                plan.rateLimit
                  ? t('apis.wizard.confirmation.limit', {
                      count: plan.rateLimit.limit,
                      period: t(`common.period.${plan.rateLimit.periodTimeUnit}`, {
                        count: plan.rateLimit.periodTime,
                      }),
                    })
                  : '—',
              ],
              [
                t('apis.wizard.plan.quota'),
                plan.quota
                  ? t('apis.wizard.confirmation.limit', {
                      count: plan.quota.limit,
                      period: t(`common.period.${plan.quota.periodTimeUnit}`, {
                        count: plan.quota.periodTime,
                      }),
                    })
                  : '—',
              ],
              [
                t('apis.wizard.plan.pathAuthorization'),
                plan.paths.length === 0
                  ? '—'
                  : plan.paths
                      .map(
                        (p) =>
                          `${p.pattern} (${p.methods.length ? p.methods.join(', ') : t('apis.wizard.plan.allMethods')})`,
                      )
                      .join('; '),
              ],
            ])
          ) : (
            <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />}>
              {t('apis.wizard.confirmation.noPlan')}
            </Alert>
          )}
        </Summary>
        <Summary title={t('apis.wizard.steps.documentation')} onEdit={() => onEdit(3)}>
          {pages.length > 0 ? (
            rows(
              pages.map((p) => [
                p.name || pageNameOf(p.fileName),
                `${t(`apis.pageTypes.${p.type}`)} · ${p.fileName}`,
              ]),
            )
          ) : (
            <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />}>
              {t('apis.wizard.confirmation.noDocumentation')}
            </Alert>
          )}
        </Summary>
        <Text size="sm">
          <Anchor href={appUrl(config.documentation.url)} target="_blank" rel="noreferrer">
            <Group gap={4} component="span" display="inline-flex">
              {t('apis.wizard.confirmation.productDocumentation')}
              <IconExternalLink size={14} />
            </Group>
          </Anchor>
        </Text>
        <Group justify="space-between" gap="sm">
          <Button variant="default" onClick={onPrevious} disabled={pending}>
            {t('apis.wizard.previous')}
          </Button>
          <Group gap="sm">
            <Button variant="light" onClick={() => onCreate(false)} loading={pending}>
              {t('apis.wizard.confirmation.createOnly')}
            </Button>
            <Button onClick={() => onCreate(true)} loading={pending}>
              {t('apis.wizard.confirmation.createAndStart')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </Paper>
  );
}

function Summary({ title, onEdit, children }: { title: string; onEdit: () => void; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Title order={3} size="h5">
          {title}
        </Title>
        <Button
          variant="subtle"
          size="compact-sm"
          leftSection={<IconPencil size={14} />}
          onClick={onEdit}
          aria-label={t('apis.wizard.confirmation.edit', { step: title })}
        >
          {t('apis.wizard.confirmation.editShort')}
        </Button>
      </Group>
      {children}
    </Stack>
  );
}
