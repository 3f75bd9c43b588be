import { Code, Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { http } from '../../shared/http';
import type { TranslationKey } from '../../shared/i18n/keys';
import { useSession } from '../../shared/session/current-user';
import { isAdmin } from '../../shared/session/permissions';
import { useApiPermissions } from '../../shared/session/api-permissions';
import { contextPathSchema } from '../apis/rules';
import { SettingsFrame } from './settings-frame';
import { useApiProxy } from './use-proxy';

/** `POST apis/verify` with the API's id: 400 when another API has the path, a parent or a sub-path of it. */
const verify = (contextPath: string, apiId: string) =>
  http.post('apis/verify', { context_path: contextPath, api_id: apiId }, { silent: true }).then(
    () => true,
    () => false,
  );

/**
 * `/proxy` (console-apis.md 2.5): the context path where the gateway serves the API. Its rules (required,
 * at least 3 characters, '/' first, letters, digits, '.', '/', '-', '_') show as one types, then the
 * server tells whether another API uses it, a parent or a sub-path of it (after a pause). Only the
 * primary owner holding api-gateway_definition-u, or an administrator, changes it.
 */
export function DetailsPage() {
  const { t } = useTranslation();
  const { apiId, api, proxy, canUpdate, save, saving } = useApiProxy();
  const { user } = useSession();
  const permissions = useApiPermissions(apiId);
  const mayEdit =
    canUpdate &&
    (isAdmin(user) || (api.owner?.id === user?.id && permissions.has('api-gateway_definition-u')));
  const initial = proxy.context_path ?? '';
  const [path, setPath] = useState(initial);
  const [free, setFree] = useState<Record<string, boolean>>({});
  const parsed = contextPathSchema.safeParse(path);
  const rule = parsed.success ? undefined : parsed.error.issues[0]?.message;
  const dirty = path.trim() !== initial;
  const checked = free[path.trim()];

  useEffect(() => {
    const wanted = path.trim();
    if (!dirty || rule || free[wanted] !== undefined) return;
    const timer = setTimeout(() => {
      void verify(wanted, apiId).then((ok) => setFree((known) => ({ ...known, [wanted]: ok })));
    }, 500);
    return () => clearTimeout(timer);
  }, [path, dirty, rule, free, apiId]);

  const error = rule
    ? t(rule as TranslationKey)
    : dirty && checked === false
      ? t('apiProxy.details.taken')
      : undefined;
  return (
    <SettingsFrame
      title={t('apiProxy.details.title')}
      description={t('apiProxy.details.description')}
      readOnly={!mayEdit}
      dirty={dirty}
      valid={!rule && checked === true}
      saving={saving}
      onReset={() => setPath(initial)}
      onSave={() => save({ ...proxy, context_path: path.trim() })}
    >
      <TextInput
        label={t('apis.fields.contextPath')}
        withAsterisk
        readOnly={!mayEdit}
        value={path}
        onChange={(e) => setPath(e.currentTarget.value)}
        error={error}
        description={mayEdit ? t('apiProxy.details.hint') : t('apis.general.contextPathOwnerOnly')}
      />
      {(proxy.virtual_hosts ?? []).length > 0 && (
        <Text size="sm">
          {t('apiProxy.details.virtualHosts')}{' '}
          {proxy.virtual_hosts!.map((v) => (
            <Code key={`${v.host ?? ''}${v.path}`} mr="xs">
              {(v.host ?? '') + v.path}
            </Code>
          ))}
        </Text>
      )}
    </SettingsFrame>
  );
}
