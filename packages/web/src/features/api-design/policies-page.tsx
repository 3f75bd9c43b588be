import {
  Alert,
  Anchor,
  Badge,
  Button,
  Drawer,
  Grid,
  Group,
  NavLink,
  Paper,
  Select,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconBox, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageLoader } from '../../shared/ui/page-loader';
import { defaultValue, isValid } from '../../shared/ui/json-schema-form';
import type { JsonObject } from '../../shared/ui/json-schema-form';
import { usePolicies } from '../plans/api/plans';
import type { PolicyDescription } from '../plans/api/types';
import { AddPathDialog } from './add-path-dialog';
import type { EditedPaths, PolicyEntry } from './design-model';
import { addPath, editedPathsOf, newEntryKey, pathsOf, sortedPaths } from './design-model';
import { PolicyChain } from './policy-chain';
import { useApiDesign } from './use-design';

/** `/policies` (console-apis.md 2.6): the policies of each path of the API, and the resources panel. */
export function PoliciesPage() {
  const { api } = useApiDesign();
  const policies = usePolicies();
  // The path shown stays when a save gives a new API (the editor starts again from it).
  const [selected, setSelected] = useState('/');
  if (!policies.data) return <PageLoader />;
  return (
    <PoliciesEditor
      key={api.updated_at}
      policies={policies.data}
      selected={selected}
      setSelected={setSelected}
    />
  );
}

function PoliciesEditor({
  policies,
  selected: chosen,
  setSelected,
}: {
  policies: PolicyDescription[];
  selected: string;
  setSelected: (path: string) => void;
}) {
  const { t } = useTranslation();
  const { api, base, canUpdate, saving, save } = useApiDesign();
  const initial = JSON.stringify(pathsOf(editedPathsOf(api.paths)));
  const [edited, setEdited] = useState<EditedPaths>(() => editedPathsOf(api.paths));
  const paths = sortedPaths(edited);
  const selected = edited[chosen] ? chosen : (paths[0] ?? '/');
  const [adding, setAdding] = useState(false);
  const [resourcesOpen, setResourcesOpen] = useState(false);
  const [picked, setPicked] = useState<string | null>(null);
  const [showErrors, setShowErrors] = useState(false);
  const byId = new Map(policies.map((p) => [p.id, p] as const));
  const dirty = JSON.stringify(pathsOf(edited)) !== initial;
  const valid = Object.values(edited).every((entries) =>
    entries.every((e) => !byId.get(e.policy) || isValid(byId.get(e.policy)!.schema, e.configuration)),
  );
  const entries = edited[selected] ?? [];
  const readOnly = !canUpdate;

  const persist = (next: EditedPaths) => save({ paths: pathsOf(next) }, 'apiDesign.policies.saved');
  const setEntries = (list: PolicyEntry[]) => setEdited({ ...edited, [selected]: list });
  const addPolicy = () => {
    const policy = picked ? byId.get(picked) : undefined;
    if (!policy) return;
    const configuration = defaultValue(policy.schema);
    setEntries([
      ...entries,
      {
        key: newEntryKey(),
        policy: policy.id,
        methods: [],
        enabled: true,
        description: '',
        configuration: (typeof configuration === 'object' && configuration
          ? configuration
          : {}) as JsonObject,
      },
    ]);
    setPicked(null);
  };
  const removePath = () => {
    const { [selected]: _removed, ...rest } = edited;
    setEdited(rest);
    setSelected('/');
  };

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2}>{t('apiDesign.policies.title')}</Title>
        <Group gap="sm">
          <Button variant="subtle" leftSection={<IconBox size={16} />} onClick={() => setResourcesOpen(true)}>
            {t('apiDesign.resources.title')}
          </Button>
          {canUpdate && (
            <>
              <Button
                variant="default"
                disabled={!dirty || saving}
                onClick={() => setEdited(editedPathsOf(api.paths))}
              >
                {t('common.reset')}
              </Button>
              <Button
                disabled={!dirty}
                loading={saving}
                onClick={() => {
                  setShowErrors(true);
                  if (valid) persist(edited);
                }}
              >
                {t('common.save')}
              </Button>
            </>
          )}
        </Group>
      </Group>
      {showErrors && !valid && <Alert color="red">{t('apiDesign.policies.invalid')}</Alert>}
      <Grid
        gap="md"
        type="container"
        breakpoints={{ xs: '400px', sm: '560px', md: '720px', lg: '960px', xl: '1200px' }}
      >
        <Grid.Col span={{ base: 12, sm: 4, lg: 3 }}>
          <Paper withBorder radius="md" p="xs">
            <Text size="sm" fw={600} px="xs" pb={4} id="design-paths-title">
              {t('apiDesign.paths.title')}
            </Text>
            <nav aria-labelledby="design-paths-title">
              {paths.map((path) => (
                <NavLink
                  key={path}
                  component="button"
                  label={
                    <Text ff="monospace" size="sm">
                      {path}
                    </Text>
                  }
                  rightSection={
                    <Badge size="sm" variant="light" color="gray">
                      {edited[path]!.length}
                    </Badge>
                  }
                  active={path === selected}
                  aria-current={path === selected ? 'true' : undefined}
                  onClick={() => setSelected(path)}
                />
              ))}
            </nav>
            {canUpdate && (
              <Button
                mt="xs"
                fullWidth
                variant="light"
                leftSection={<IconPlus size={16} />}
                onClick={() => setAdding(true)}
              >
                {t('apiDesign.paths.add')}
              </Button>
            )}
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 8, lg: 9 }}>
          <Stack gap="sm">
            <Group justify="space-between">
              <Title order={3} size="h4" ff="monospace">
                {selected}
              </Title>
              {canUpdate && selected !== '/' && (
                <Button
                  size="compact-sm"
                  variant="subtle"
                  color="red"
                  leftSection={<IconTrash size={14} />}
                  onClick={removePath}
                >
                  {t('apiDesign.paths.remove', { path: selected })}
                </Button>
              )}
            </Group>
            <PolicyChain
              entries={entries}
              policies={policies}
              readOnly={readOnly}
              showErrors={showErrors}
              onChange={setEntries}
              onToggle={(list) => {
                const next = { ...edited, [selected]: list };
                setEdited(next);
                persist(next);
              }}
            />
            {canUpdate && (
              <Group align="flex-end" gap="sm">
                <Select
                  style={{ flex: 1, maxWidth: 360 }}
                  label={t('apiDesign.policies.add')}
                  placeholder={t('apiDesign.policies.pick')}
                  data={policies.map((p) => ({ value: p.id, label: p.name }))}
                  value={picked}
                  onChange={setPicked}
                  searchable
                />
                <Button
                  variant="light"
                  leftSection={<IconPlus size={16} />}
                  onClick={addPolicy}
                  disabled={!picked}
                >
                  {t('apiDesign.policies.addButton')}
                </Button>
              </Group>
            )}
          </Stack>
        </Grid.Col>
      </Grid>
      <Drawer
        opened={resourcesOpen}
        onClose={() => setResourcesOpen(false)}
        position="right"
        title={t('apiDesign.resources.title')}
        closeButtonProps={{ 'aria-label': t('common.closeDialog') }}
      >
        <Stack gap="xs">
          {api.resources.length === 0 && (
            <Text size="sm" c="dimmed">
              {t('apiDesign.resources.empty')}
            </Text>
          )}
          {api.resources.map((r) => (
            <Group key={r.name} justify="space-between" wrap="nowrap">
              <Text size="sm">{r.name}</Text>
              <Badge size="sm" variant="light" color={r.enabled ? 'teal' : 'gray'}>
                {r.type}
              </Badge>
            </Group>
          ))}
          <Anchor component={Link} to={`${base}/resources`} size="sm" mt="xs">
            {t('apiDesign.resources.manage')}
          </Anchor>
        </Stack>
      </Drawer>
      <AddPathDialog
        opened={adding}
        existing={paths}
        onClose={() => setAdding(false)}
        onAdd={(path, copy) => {
          setEdited(addPath(edited, path, copy));
          setSelected(path);
        }}
      />
    </Stack>
  );
}
