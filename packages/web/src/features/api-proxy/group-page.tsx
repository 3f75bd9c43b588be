import { Select, SimpleGrid, TextInput } from '@mantine/core';
import type { EndpointGroup } from '@portico/model';
import { LOAD_BALANCING_TYPES } from '@portico/model';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import type { TranslationKey } from '../../shared/i18n/keys';
import { EditorFrame, NotFound } from './editor-frame';
import { HttpConfigForm } from './http-config-form';
import type { Place } from './proxy-model';
import { cleanHttpConfig, groupProblems, placeOf, withGroup } from './proxy-model';
import { useApiProxy } from './use-proxy';

/** `/proxy/groups/{group}` and `/proxy/newgroup` (console-apis.md 2.5): name, load balancing, HTTP configuration. */
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
  const { proxy } = useApiProxy();
  const [group, setGroup] = useState<EndpointGroup>(initial);
  const problems = groupProblems(proxy, place, group);
  const readOnly = !canUpdate;
  return (
    <EditorFrame
      back={back}
      title={initial.name ? t('apiProxy.group.title', { name: initial.name }) : t('apiProxy.group.titleNew')}
      readOnly={readOnly}
      saving={saving}
      canSave={Object.keys(problems).length === 0}
      onSave={() => onSave(group, () => void navigate(back))}
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
          problems={problems}
          readOnly={readOnly}
          onChange={(config) => setGroup({ ...group, ...config })}
        />
      }
    />
  );
}
