import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import type { Property } from '@portico/model';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PROPERTY_VALUE_MAX } from './design-model';
import { DynamicPropertiesCard } from './dynamic-properties-card';
import { useApiDesign } from './use-design';

/**
 * `/properties` (console-apis.md 2.6): the API's properties (add with a name and a value, inline value
 * edit up to 160 characters, removal; dynamic ones come from the provider and are read-only) and the
 * dynamic-properties service.
 */
export function PropertiesPage() {
  const { api } = useApiDesign();
  return (
    <Stack gap="lg">
      <PropertiesTable key={api.updated_at} />
      <DynamicPropertiesCard key={`dynamic-${api.updated_at}`} />
    </Stack>
  );
}

function PropertiesTable() {
  const { t } = useTranslation();
  const { api, canUpdate, saving, save } = useApiDesign();
  const [rows, setRows] = useState<Property[]>(api.properties);
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const dirty = JSON.stringify(rows) !== JSON.stringify(api.properties);
  const keyProblem = !key.trim()
    ? undefined
    : rows.some((p) => p.key === key.trim())
      ? t('apiDesign.properties.keyTaken')
      : undefined;
  const tooLong = (text: string) =>
    text.length > PROPERTY_VALUE_MAX
      ? t('apiDesign.properties.valueTooLong', { max: PROPERTY_VALUE_MAX })
      : undefined;
  const canAdd = !!key.trim() && !!value && !keyProblem && !tooLong(value);
  const valid = rows.every((p) => !tooLong(p.value));
  const persist = (next: Property[]) => save({ properties: next }, 'apiDesign.properties.saved');

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2}>{t('apiDesign.properties.title')}</Title>
        {canUpdate && (
          <Group gap="sm">
            <Button variant="default" disabled={!dirty || saving} onClick={() => setRows(api.properties)}>
              {t('common.reset')}
            </Button>
            <Button disabled={!dirty || !valid} loading={saving} onClick={() => persist(rows)}>
              {t('common.save')}
            </Button>
          </Group>
        )}
      </Group>
      {canUpdate && (
        <Paper withBorder radius="md" p="md">
          <form
            onSubmit={(event) => {
              event.preventDefault();
              if (!canAdd) return;
              setRows([...rows, { key: key.trim(), value, dynamic: false }]);
              setKey('');
              setValue('');
            }}
          >
            <Group align="flex-start" gap="sm">
              <TextInput
                style={{ flex: 1 }}
                label={t('apiDesign.properties.key')}
                withAsterisk
                value={key}
                onChange={(e) => setKey(e.currentTarget.value)}
                error={keyProblem}
              />
              <TextInput
                style={{ flex: 2 }}
                label={t('apiDesign.properties.value')}
                withAsterisk
                value={value}
                onChange={(e) => setValue(e.currentTarget.value)}
                error={tooLong(value)}
              />
              <Button
                type="submit"
                mt={25}
                variant="light"
                leftSection={<IconPlus size={16} />}
                disabled={!canAdd}
              >
                {t('apiDesign.properties.add')}
              </Button>
            </Group>
          </form>
        </Paper>
      )}
      <Paper withBorder radius="md">
        {rows.length === 0 ? (
          <Text c="dimmed" ta="center" p="xl">
            {t('apiDesign.properties.empty')}
          </Text>
        ) : (
          <Table verticalSpacing="xs" horizontalSpacing="md">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w="30%">{t('apiDesign.properties.key')}</Table.Th>
                <Table.Th>{t('apiDesign.properties.value')}</Table.Th>
                {canUpdate && <Table.Th w={60}>{t('apiDesign.actions')}</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((property, index) => (
                <Table.Tr key={property.key}>
                  <Table.Td>
                    <Group gap="xs">
                      <Text ff="monospace" size="sm">
                        {property.key}
                      </Text>
                      {property.dynamic && (
                        <Badge size="xs" variant="light">
                          {t('apiDesign.properties.dynamic')}
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <TextInput
                      size="xs"
                      aria-label={t('apiDesign.properties.valueOf', { key: property.key })}
                      value={property.value}
                      readOnly={!canUpdate || property.dynamic}
                      onChange={(e) => {
                        const next = e.currentTarget.value;
                        setRows(rows.map((p, i) => (i === index ? { ...p, value: next } : p)));
                      }}
                      error={tooLong(property.value)}
                    />
                  </Table.Td>
                  {canUpdate && (
                    <Table.Td>
                      <Tooltip label={t('apiDesign.properties.remove', { key: property.key })}>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={t('apiDesign.properties.remove', { key: property.key })}
                          onClick={() => setRows(rows.filter((_, i) => i !== index))}
                        >
                          <IconTrash size={16} />
                        </ActionIcon>
                      </Tooltip>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Paper>
    </Stack>
  );
}
