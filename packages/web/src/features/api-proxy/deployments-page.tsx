import { Checkbox, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../shared/session/current-user';
import { hasPermission } from '../../shared/session/permissions';
import { useConfiguredTags, useUserTags } from '../apis/api/members';
import { tagOptions } from '../apis/components/general/tag-options';
import { SettingsFrame } from './settings-frame';
import { useApiProxy } from './use-proxy';

/**
 * `/deployments` (console-apis.md 2.5): the sharding tags that choose the gateways serving the API. Only
 * the tags the user may use (`GET user/tags`: not restricted to groups the user is not in) can be
 * ticked or unticked; the others show, disabled.
 */
export function DeploymentsPage() {
  const { t } = useTranslation();
  const { api, canUpdate, saveApi, saving } = useApiProxy();
  const { user } = useSession();
  const usable = useUserTags();
  const all = useConfiguredTags(hasPermission(user, 'management-tag-r'));
  const [tags, setTags] = useState<string[]>(api.tags);
  const options = tagOptions(usable.data, all.data, tags);
  const dirty = [...tags].sort().join('\n') !== [...api.tags].sort().join('\n');
  const readOnly = !canUpdate;

  return (
    <SettingsFrame
      title={t('apiProxy.deployments.title')}
      description={t('apiProxy.deployments.description')}
      readOnly={readOnly}
      dirty={dirty}
      valid
      saving={saving}
      onReset={() => setTags(api.tags)}
      onSave={() => saveApi({ tags })}
    >
      {options.length === 0 ? (
        <Text c="dimmed">{t('apiProxy.deployments.none')}</Text>
      ) : (
        <Checkbox.Group label={t('apiProxy.deployments.tags')} value={tags} onChange={setTags}>
          <Stack gap="xs" mt="xs">
            {options.map((option) => (
              <Checkbox
                key={option.value}
                value={option.value}
                label={option.label}
                disabled={readOnly || option.disabled}
                description={option.disabled ? t('apiProxy.deployments.notYours') : undefined}
              />
            ))}
          </Stack>
        </Checkbox.Group>
      )}
    </SettingsFrame>
  );
}
