import { Anchor, Group, Paper, Select, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfig } from '../../../shared/config/config-context';
import { useSession } from '../../../shared/session/current-user';
import type { DocPage } from '../api/pages';
import { apiEntrypoint, useEntrypointMappings, useMyApiKeys } from '../api/try-it';

/** swagger-ui, loaded only when an OpenAPI page is shown. */
const OpenApiView = lazy(() => import('./openapi-view'));

/** The API a page documents: where the gateway serves it. */
export interface DocumentedApi {
  id: string;
  context_path: string;
  tags: string[];
}

/**
 * An OpenAPI page with try-it through the gateway: the calls go to the page's try-it URL, else to the
 * API's entrypoint (its sharding tags' entrypoint or `portal.entrypoint`, then its context path), with
 * the user's API key in the gateway's key header (`portal.apikeyHeader`, X-Api-Key by default). The
 * key is one of the user's subscriptions' keys or one typed in. Try-it needs tryIt on, and a signed-in
 * reader unless tryItAnonymous is on. showURL adds a link to the description itself.
 */
export function OpenApiPage({
  page,
  api,
  contentUrl,
}: {
  page: DocPage;
  api?: DocumentedApi | undefined;
  /** Where the description is read (`.../pages/{pageId}/content`), linked when showURL is on. */
  contentUrl: string;
}) {
  const { t } = useTranslation();
  const config = useConfig();
  const { user } = useSession();
  const configuration = page.configuration;
  const enabled = configuration.tryIt === 'true' && (!!user || configuration.tryItAnonymous === 'true');
  const mappings = useEntrypointMappings();
  const keys = useMyApiKeys(api?.id ?? '', enabled && !!user && !!api);
  const [key, setKey] = useState('');
  const header = config.portal.apikeyHeader || 'X-Api-Key';
  const serverUrl =
    configuration.tryItURL ||
    (api ? apiEntrypoint(config.portal.entrypoint, mappings.data ?? [], api) : undefined);
  const trimmed = key.trim();
  return (
    <Stack gap="md">
      {configuration.showURL === 'true' && (
        <Anchor href={contentUrl} target="_blank" rel="noopener noreferrer" size="sm">
          <IconDownload size={14} aria-hidden /> {t('pages.tryIt.download')}
        </Anchor>
      )}
      {enabled && serverUrl && (
        <Paper withBorder p="md" radius="md">
          <Stack gap="xs">
            <Text fw={600}>{t('pages.tryIt.title')}</Text>
            <Text size="sm" c="dimmed">
              {t('pages.tryIt.through', { url: serverUrl })}
            </Text>
            <Group align="flex-end" gap="md">
              {(keys.data?.length ?? 0) > 0 && (
                <Select
                  label={t('pages.tryIt.myKeys')}
                  placeholder={t('pages.tryIt.pick')}
                  data={(keys.data ?? []).map((k) => ({
                    value: k.key,
                    label: `${k.application} · ${k.plan} · ${k.key.slice(0, 8)}…`,
                  }))}
                  value={keys.data?.some((k) => k.key === key) ? key : null}
                  onChange={(value) => setKey(value ?? '')}
                  w={340}
                />
              )}
              <TextInput
                label={t('pages.tryIt.key')}
                description={t('pages.tryIt.keyHint', { header })}
                placeholder={t('pages.tryIt.keyPlaceholder')}
                value={key}
                onChange={(event) => setKey(event.currentTarget.value)}
                autoComplete="off"
                spellCheck={false}
                w={360}
              />
            </Group>
          </Stack>
        </Paper>
      )}
      <Suspense fallback={<Skeleton height={400} />}>
        <OpenApiView
          content={page.content ?? ''}
          configuration={configuration}
          tryIt={{ serverUrl, enabled, headers: trimmed ? { [header]: trimmed } : {} }}
        />
      </Suspense>
    </Stack>
  );
}
