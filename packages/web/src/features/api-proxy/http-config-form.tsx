import {
  ActionIcon,
  Button,
  Group,
  NumberInput,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { TranslationKey } from '../../shared/i18n/keys';
import type { HttpConfig, Problems, Store } from './proxy-model';
import { DEFAULT_HTTP } from './proxy-model';

type Http = NonNullable<HttpConfig['http']>;
type HttpProxy = NonNullable<HttpConfig['proxy']>;
type Ssl = NonNullable<HttpConfig['ssl']>;

const NO_PROXY: HttpProxy = { enabled: false, useSystemProxy: false, type: 'HTTP' };
const NO_SSL: Ssl = { trustAll: false, hostnameVerifier: true };

/**
 * The HTTP configuration of a group or an endpoint (console-apis.md 3 and 5): timeouts, connections,
 * the HTTP/SOCKS proxy, the trust and key stores (JKS, PKCS12, PEM) and the headers sent to the backend.
 */
export function HttpConfigForm({
  value,
  onChange,
  headers,
  onHeadersChange,
  problems,
  readOnly,
}: {
  value: HttpConfig;
  onChange: (next: HttpConfig) => void;
  /** The headers as pairs (a name given twice is shown and refused, not merged). */
  headers: [string, string][];
  onHeadersChange: (pairs: [string, string][]) => void;
  problems: Problems;
  readOnly: boolean;
}) {
  const { t } = useTranslation();
  const error = (field: string) =>
    problems[field] ? t(`apiProxy.problems.${problems[field]}` as TranslationKey) : undefined;
  const http = value.http ?? DEFAULT_HTTP;
  const proxy = value.proxy ?? NO_PROXY;
  const ssl = value.ssl ?? NO_SSL;
  const setHttp = (change: Partial<Http>) => onChange({ ...value, http: { ...http, ...change } });
  const setProxy = (change: Partial<HttpProxy>) => onChange({ ...value, proxy: { ...proxy, ...change } });
  const setSsl = (change: Partial<Ssl>) => onChange({ ...value, ssl: { ...ssl, ...change } });
  const setHeaders = onHeadersChange;
  const num = (v: string | number) => (typeof v === 'number' ? v : Number.NaN);

  const numberField = (
    key: 'connectTimeout' | 'readTimeout' | 'idleTimeout' | 'maxConcurrentConnections',
  ) => (
    <NumberInput
      label={t(`apiProxy.http.${key}`)}
      withAsterisk
      readOnly={readOnly}
      allowDecimal={false}
      value={Number.isNaN(http[key]) ? '' : http[key]}
      onChange={(v) => setHttp({ [key]: num(v) })}
      error={error(`http.${key}`)}
    />
  );
  const flag = (key: 'keepAlive' | 'pipelining' | 'useCompression' | 'followRedirects' | 'encodeURI') => (
    <Switch
      label={t(`apiProxy.http.${key}`)}
      disabled={readOnly}
      checked={http[key]}
      onChange={(e) => setHttp({ [key]: e.currentTarget.checked })}
    />
  );

  return (
    <Stack gap="lg">
      <Stack gap="sm">
        <Title order={3} size="h5">
          {t('apiProxy.http.clientTitle')}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {numberField('connectTimeout')}
          {numberField('readTimeout')}
          {numberField('idleTimeout')}
          {numberField('maxConcurrentConnections')}
        </SimpleGrid>
        <Group gap="xl">
          {flag('keepAlive')}
          {flag('pipelining')}
          {flag('useCompression')}
          {flag('followRedirects')}
          {flag('encodeURI')}
        </Group>
      </Stack>

      <Stack gap="sm">
        <Title order={3} size="h5">
          {t('apiProxy.http.proxyTitle')}
        </Title>
        <Switch
          label={t('apiProxy.http.proxyEnabled')}
          disabled={readOnly}
          checked={proxy.enabled}
          onChange={(e) => setProxy({ enabled: e.currentTarget.checked })}
        />
        {proxy.enabled && (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Select
              label={t('apiProxy.http.proxyType')}
              withAsterisk
              readOnly={readOnly}
              data={['HTTP', 'SOCKS4', 'SOCKS5']}
              value={proxy.type}
              allowDeselect={false}
              onChange={(v) => setProxy({ type: (v ?? 'HTTP') as HttpProxy['type'] })}
            />
            <TextInput
              label={t('apiProxy.http.host')}
              withAsterisk
              readOnly={readOnly}
              value={proxy.host ?? ''}
              onChange={(e) => setProxy({ host: e.currentTarget.value })}
              error={error('proxy.host')}
            />
            <NumberInput
              label={t('apiProxy.http.port')}
              withAsterisk
              readOnly={readOnly}
              allowDecimal={false}
              value={proxy.port ?? ''}
              onChange={(v) => setProxy({ port: typeof v === 'number' ? v : undefined })}
              error={error('proxy.port')}
            />
            <TextInput
              label={t('apiProxy.http.username')}
              readOnly={readOnly}
              value={proxy.username ?? ''}
              onChange={(e) => setProxy({ username: e.currentTarget.value || undefined })}
            />
            <PasswordInput
              label={t('apiProxy.http.password')}
              readOnly={readOnly}
              value={proxy.password ?? ''}
              onChange={(e) => setProxy({ password: e.currentTarget.value || undefined })}
            />
          </SimpleGrid>
        )}
      </Stack>

      <Stack gap="sm">
        <Title order={3} size="h5">
          {t('apiProxy.http.sslTitle')}
        </Title>
        <Group gap="xl">
          <Switch
            label={t('apiProxy.http.trustAll')}
            disabled={readOnly}
            checked={ssl.trustAll}
            onChange={(e) => setSsl({ trustAll: e.currentTarget.checked })}
          />
          <Switch
            label={t('apiProxy.http.hostnameVerifier')}
            disabled={readOnly}
            checked={ssl.hostnameVerifier}
            onChange={(e) => setSsl({ hostnameVerifier: e.currentTarget.checked })}
          />
        </Group>
        <StoreFields
          kind="trustStore"
          store={ssl.trustStore as Store | undefined}
          disabled={ssl.trustAll}
          readOnly={readOnly}
          error={error}
          onChange={(store) => setSsl({ trustStore: store })}
        />
        <StoreFields
          kind="keyStore"
          store={ssl.keyStore}
          disabled={false}
          readOnly={readOnly}
          error={error}
          onChange={(store) => setSsl({ keyStore: store })}
        />
      </Stack>

      <Stack gap="sm">
        <Title order={3} size="h5">
          {t('apiProxy.http.headersTitle')}
        </Title>
        {headers.map(([name, headerValue], i) => (
          <Group key={i} align="flex-end" wrap="nowrap">
            <TextInput
              flex={1}
              label={t('apiProxy.http.headerName')}
              withAsterisk
              readOnly={readOnly}
              value={name}
              error={error(`headers.${i}.name`)}
              onChange={(e) =>
                setHeaders(headers.map((h, j) => (j === i ? [e.currentTarget.value, h[1]] : h)))
              }
            />
            <TextInput
              flex={1}
              label={t('apiProxy.http.headerValue')}
              withAsterisk
              readOnly={readOnly}
              value={headerValue}
              error={error(`headers.${i}.value`)}
              onChange={(e) =>
                setHeaders(headers.map((h, j) => (j === i ? [h[0], e.currentTarget.value] : h)))
              }
            />
            {!readOnly && (
              <ActionIcon
                variant="subtle"
                color="red"
                size="lg"
                aria-label={t('apiProxy.http.removeHeader')}
                onClick={() => setHeaders(headers.filter((_, j) => j !== i))}
              >
                <IconTrash size={16} />
              </ActionIcon>
            )}
          </Group>
        ))}
        {!readOnly && (
          <Button
            variant="default"
            w="fit-content"
            leftSection={<IconPlus size={16} />}
            onClick={() => setHeaders([...headers, [`X-Header-${headers.length + 1}`, 'value']])}
          >
            {t('apiProxy.http.addHeader')}
          </Button>
        )}
      </Stack>
    </Stack>
  );
}

/** A trust or key store: its type (none removes it on save), then what the type needs. */
function StoreFields({
  kind,
  store,
  disabled,
  readOnly,
  error,
  onChange,
}: {
  kind: 'trustStore' | 'keyStore';
  store: Store | undefined;
  disabled: boolean;
  readOnly: boolean;
  error: (field: string) => string | undefined;
  onChange: (store: Store) => void;
}) {
  const { t } = useTranslation();
  const current: Store = store ?? { type: '' };
  const set = (change: Partial<Store>) => onChange({ ...current, ...change });
  const text = (field: 'path' | 'certPath' | 'keyPath') => (
    <TextInput
      label={t(`apiProxy.http.${field}`)}
      readOnly={readOnly}
      value={current[field] ?? ''}
      onChange={(e) => set({ [field]: e.currentTarget.value || undefined })}
      error={error(`ssl.${kind}.${field}`)}
    />
  );
  const area = (field: 'content' | 'certContent' | 'keyContent') => (
    <Textarea
      label={t(`apiProxy.http.${field}`)}
      readOnly={readOnly}
      autosize
      minRows={2}
      value={current[field] ?? ''}
      onChange={(e) => set({ [field]: e.currentTarget.value || undefined })}
    />
  );
  const pemKey = kind === 'keyStore' && current.type === 'PEM';
  return (
    <Stack gap="xs">
      <Select
        label={t(`apiProxy.http.${kind}`)}
        disabled={disabled}
        readOnly={readOnly}
        allowDeselect={false}
        data={[
          { value: '', label: t('apiProxy.http.storeNone') },
          { value: 'JKS', label: 'JKS' },
          { value: 'PKCS12', label: 'PKCS#12' },
          { value: 'PEM', label: 'PEM' },
        ]}
        value={current.type}
        onChange={(v) => set({ type: (v ?? '') as Store['type'] })}
      />
      {!disabled && current.type !== '' && (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {pemKey ? (
            <>
              {text('certPath')}
              {area('certContent')}
              {text('keyPath')}
              {area('keyContent')}
            </>
          ) : (
            <>
              {text('path')}
              {area('content')}
            </>
          )}
          {(current.type === 'JKS' || current.type === 'PKCS12') && (
            <PasswordInput
              label={t('apiProxy.http.password')}
              withAsterisk
              readOnly={readOnly}
              value={current.password ?? ''}
              onChange={(e) => set({ password: e.currentTarget.value || undefined })}
              error={error(`ssl.${kind}.password`)}
            />
          )}
        </SimpleGrid>
      )}
    </Stack>
  );
}
