import {
  ActionIcon,
  Badge,
  Button,
  Collapse,
  Group,
  Paper,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import {
  IconArrowDown,
  IconArrowUp,
  IconChevronDown,
  IconChevronRight,
  IconPlus,
  IconTrash,
} from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { JsonSchemaForm, isValid } from '../../../../shared/ui/json-schema-form';
import type { PolicyDescription } from '../../api/types';
import { POLICY_DESCRIPTION_MAX, RESTRICTION_POLICIES } from '../../rules';
import type { ChainPolicy, PlanFormValues } from './plan-form';
import { configurationDefaults, newKey } from './plan-form';

/**
 * Policies: the plan's policy chain, run in this order for every call of a subscriber: add, remove,
 * move, describe, enable or disable, and configure each policy with the form of its schema.
 */
export function PoliciesStep({
  form,
  policies,
  showErrors,
  errorOf,
}: {
  form: UseFormReturnType<PlanFormValues>;
  policies: PolicyDescription[];
  showErrors: boolean;
  errorOf: (field: string) => string | undefined;
}) {
  const { t } = useTranslation();
  const [picked, setPicked] = useState<string | null>(null);
  const [opened, setOpened] = useState<ReadonlySet<string>>(new Set());
  const chain = form.getValues().policies;
  const offered = policies.filter((p) => !(RESTRICTION_POLICIES as readonly string[]).includes(p.id));
  const byId = new Map(policies.map((p) => [p.id, p] as const));
  const toggle = (key: string) =>
    setOpened((current) => {
      const next = new Set(current);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  const add = () => {
    const policy = picked ? byId.get(picked) : undefined;
    if (!policy) return;
    const entry: ChainPolicy = {
      key: newKey(),
      policy: policy.id,
      description: '',
      enabled: true,
      methods: [],
      configuration: configurationDefaults(policy.schema),
    };
    form.insertListItem('policies', entry);
    setOpened((current) => new Set([...current, entry.key]));
    setPicked(null);
  };
  const move = (from: number, to: number) => form.reorderListItem('policies', { from, to });

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {t('plans.policies.hint')}
      </Text>
      {chain.length === 0 && (
        <Paper withBorder radius="md" p="lg" bg="var(--mantine-color-gray-0)">
          <Text size="sm" c="dimmed" ta="center">
            {t('plans.policies.empty')}
          </Text>
        </Paper>
      )}
      <Stack gap="sm" component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {chain.map((entry, index) => {
          const policy = byId.get(entry.policy);
          const name = policy?.name ?? entry.policy;
          const open = opened.has(entry.key);
          const invalid = !!policy && !isValid(policy.schema, entry.configuration);
          const panelId = `policy-config-${entry.key}`;
          return (
            <li key={entry.key}>
              <Paper withBorder radius="md" p="md" opacity={entry.enabled ? 1 : 0.8}>
                <Stack gap="sm">
                  <Group justify="space-between" wrap="nowrap" align="flex-start">
                    <Group gap="xs" wrap="nowrap" align="flex-start">
                      <Badge variant="light" color="gray" mt={2} miw="var(--badge-height)" px={4}>
                        {index + 1}
                      </Badge>
                      <div>
                        <Text fw={600}>{name}</Text>
                        {policy?.description && (
                          <Text size="xs" c="dimmed">
                            {policy.description}
                          </Text>
                        )}
                      </div>
                    </Group>
                    <Group gap={4} wrap="nowrap">
                      {invalid && (
                        <Badge color="red" variant="light" tt="none">
                          {t('plans.wizard.incomplete')}
                        </Badge>
                      )}
                      <Tooltip label={t('plans.policies.moveUp', { name })}>
                        <ActionIcon
                          variant="subtle"
                          color="gray"
                          disabled={index === 0}
                          onClick={() => move(index, index - 1)}
                          aria-label={t('plans.policies.moveUp', { name })}
                        >
                          <IconArrowUp size={16} />
                        </ActionIcon>
                      </Tooltip>
                      <Tooltip label={t('plans.policies.moveDown', { name })}>
                        <ActionIcon
                          variant="subtle"
                          color="gray"
                          disabled={index === chain.length - 1}
                          onClick={() => move(index, index + 1)}
                          aria-label={t('plans.policies.moveDown', { name })}
                        >
                          <IconArrowDown size={16} />
                        </ActionIcon>
                      </Tooltip>
                      <Tooltip label={t('plans.policies.remove', { name })}>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          onClick={() => form.removeListItem('policies', index)}
                          aria-label={t('plans.policies.remove', { name })}
                        >
                          <IconTrash size={16} />
                        </ActionIcon>
                      </Tooltip>
                    </Group>
                  </Group>
                  <Group align="flex-end" gap="md" wrap="wrap">
                    <TextInput
                      style={{ flex: 1, minWidth: 220 }}
                      label={t('plans.policies.description')}
                      placeholder={t('plans.policies.descriptionPlaceholder')}
                      maxLength={POLICY_DESCRIPTION_MAX}
                      {...form.getInputProps(`policies.${index}.description`)}
                      error={errorOf(`policies.${index}.description`)}
                    />
                    <Switch
                      mb={8}
                      label={t('plans.policies.enabled')}
                      aria-label={t('plans.policies.enabledOf', { name })}
                      {...form.getInputProps(`policies.${index}.enabled`, { type: 'checkbox' })}
                    />
                  </Group>
                  <div>
                    <Button
                      variant="subtle"
                      size="compact-sm"
                      leftSection={open ? <IconChevronDown size={14} /> : <IconChevronRight size={14} />}
                      onClick={() => toggle(entry.key)}
                      aria-expanded={open}
                      aria-controls={panelId}
                    >
                      {t('plans.policies.configuration')}
                    </Button>
                    <Collapse expanded={open} id={panelId}>
                      <Paper p="sm" mt="xs" radius="sm" bg="var(--mantine-color-gray-0)">
                        {policy ? (
                          <JsonSchemaForm
                            schema={policy.schema}
                            value={entry.configuration}
                            onChange={(configuration) =>
                              form.setFieldValue(`policies.${index}.configuration`, configuration)
                            }
                            showErrors={showErrors}
                            idPrefix={entry.key}
                          />
                        ) : (
                          <Text size="sm" c="dimmed">
                            {t('plans.policies.unknown', { id: entry.policy })}
                          </Text>
                        )}
                      </Paper>
                    </Collapse>
                  </div>
                </Stack>
              </Paper>
            </li>
          );
        })}
      </Stack>
      <Group align="flex-end" gap="sm">
        <Select
          style={{ flex: 1, maxWidth: 360 }}
          label={t('plans.policies.add')}
          placeholder={t('plans.policies.pick')}
          data={offered.map((p) => ({ value: p.id, label: p.name }))}
          value={picked}
          onChange={setPicked}
          searchable
          nothingFoundMessage={t('plans.policies.noPolicy')}
        />
        <Button variant="light" leftSection={<IconPlus size={16} />} onClick={add} disabled={!picked}>
          {t('plans.policies.addButton')}
        </Button>
      </Group>
    </Stack>
  );
}
