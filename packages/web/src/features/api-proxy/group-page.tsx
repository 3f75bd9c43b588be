import { Select, SimpleGrid, TextInput } from '@mantine/core';
import type { EndpointGroup } from '@portico/model';
import { LOAD_BALANCING_TYPES } from '@portico/model';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import type { TranslationKey } from '../../shared/i18n/keys';
import { DiscoveryTab, discoveryProblem, discoveryToSave, useDiscoverySchema } from './discovery-tab';
import { EditorFrame, NotFound } from './editor-frame';
import { HttpConfigForm } from './http-config-form';
import type { Place } from './proxy-model';
import {
  cleanHttpConfig,
  groupProblems,
  headerMap,
  headerPairProblems,
  headerPairs,
  placeOf,
  withGroup,
} from './proxy-model';
import { useApiProxy } from './use-proxy';

/**
 * `/proxy/groups/{group}` and `/proxy/newgroup` (console-apis.md 2.5): name, load balancing, HTTP
 * configuration, service discovery.
 */
export function GroupPage() {
  const { groupName } = useParams();
  const { proxy, base, canUpdate, save, saving } = useApiProxy();
  const back = `${base}/proxy/endpoints`;
  const place: Place | undefined = groupName === undefined ? {} : placeOf(proxy, groupName);
  if (!place) return <NotFound back={back} />;
  const initial: EndpointGroup =
    place.group === undefined
      ? { name: '', endpoints: [], load_balancing: { type: 'ROUND_ROBIN' } }
      : proxy.groups[place.group]!;
  return (
    <GroupEditor
      key={groupName ?? ''}
      initial={initial}
      place={place}
      back={back}
      canUpdate={canUpdate}
      saving={saving}
      onSave={(group, done) => save(withGroup(proxy, place, cleanHttpConfig(group)), done)}
    />
  );
}

function GroupEditor({
  initial,
  place,
  back,
  canUpdate,
  saving,
  onSave,
}: {
  initial: EndpointGroup;
  place: Place;
  back: string;
  canUpdate: boolean;
  saving: boolean;
  onSave: (group: EndpointGroup, done: () => void) => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { proxy, canDiscover } = useApiProxy();
  const [group, setGroup] = useState<EndpointGroup>(initial);
  const [headers, setHeaders] = useState(() => headerPairs(initial.headers));
  const discovery = group.services?.discovery;
  const schema = useDiscoverySchema(discovery?.enabled ? discovery.provider : undefined).data;
  const discoveryIssue = discoveryProblem(discovery, schema);
  const problems = { ...groupProblems(proxy, place, group), ...headerPairProblems(headers) };
  if (discoveryIssue) problems.discovery = 'required';
  const readOnly = !canUpdate;
  const toSave = (): EndpointGroup => ({
    ...group,
    headers: headerMap(headers),
    ...(discovery ? { services: { ...group.services, discovery: discoveryToSave(discovery, schema) } } : {}),
  });
  return (
    <EditorFrame
      back={back}
      title={initial.name ? t('apiProxy.group.title', { name: initial.name }) : t('apiProxy.group.titleNew')}
      readOnly={readOnly}
      saving={saving}
      canSave={Object.keys(problems).length === 0}
      onSave={() => onSave(toSave(), () => void navigate(back))}
      general={
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t('apiProxy.group.name')}
            withAsterisk
            readOnly={readOnly}
            value={group.name}
            onChange={(e) => setGroup({ ...group, name: e.currentTarget.value })}
            error={problems.name ? t(`apiProxy.problems.${problems.name}` as TranslationKey) : undefined}
          />
          <Select
            label={t('apiProxy.group.loadBalancing')}
            readOnly={readOnly}
            allowDeselect={false}
            data={LOAD_BALANCING_TYPES.map((value) => ({
              value,
              label: t(`apiProxy.group.lb.${value}`),
            }))}
            value={group.load_balancing.type}
            onChange={(v) =>
              setGroup({
                ...group,
                load_balancing: { type: (v ?? 'ROUND_ROBIN') as EndpointGroup['load_balancing']['type'] },
              })
            }
          />
        </SimpleGrid>
      }
      httpConfig={
        <HttpConfigForm
          value={group}
          headers={headers}
          onHeadersChange={setHeaders}
          problems={problems}
          readOnly={readOnly}
          onChange={(config) => setGroup({ ...group, ...config })}
        />
      }
      tabs={[
        {
          value: 'discovery',
          label: t('apiProxy.discovery.tab'),
          panel: (
            <DiscoveryTab
              value={discovery}
              schema={schema}
              readOnly={readOnly || !canDiscover}
              onChange={(next) => setGroup({ ...group, services: { ...group.services, discovery: next } })}
            />
          ),
        },
      ]}
    />
  );
}
