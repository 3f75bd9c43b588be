import {
  ActionIcon,
  Alert,
  Code,
  CopyButton,
  Group,
  Paper,
  Skeleton,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconCheck, IconCircleCheck, IconCopy, IconHourglass } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useConfig } from '../../../shared/config/config-context';
import { notifySuccess } from '../../../shared/ui/notify';
import { apiEntrypoints } from '../../portal-apis/api/entrypoints';
import type { PortalApi } from '../../portal-apis/api/portal-api';
import { useEntrypoints } from '../../portal-apis/api/portal-api';
import type { WizardSubscription } from '../api/subscribe-api';
import { useSubscriptionKeys } from '../api/subscribe-api';
import { curlWithKey, curlWithToken } from '../samples';
import classes from './subscribe.module.css';

/** A text to copy, with its copy button. */
function Copyable({
  text,
  label,
  block,
  notice,
}: {
  text: string;
  label: string;
  block?: boolean;
  /** Says so once copied (the API key). */
  notice?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <Code
        block={block}
        className={classes.sample}
        style={{ flex: 1, fontSize: 'var(--mantine-font-size-sm)' }}
      >
        {text}
      </Code>
      <CopyButton value={text}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? t('portalSubscribe.outcome.copied') : label} withArrow>
            <ActionIcon
              variant="default"
              size="lg"
              aria-label={label}
              onClick={() => {
                copy();
                if (notice) notifySuccess('portalSubscribe.outcome.keyCopied');
              }}
            >
              {copied ? <IconCheck size={18} aria-hidden /> : <IconCopy size={18} aria-hidden />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}

/** The sample call of the API, under its heading. */
function Sample({ command }: { command: string }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="subscribe-sample">
      <Title order={3} size="h5" id="subscribe-sample" mb={6}>
        {t('portalSubscribe.outcome.sampleTitle')}
      </Title>
      <Copyable text={command} label={t('portalSubscribe.outcome.copySample')} block />
    </section>
  );
}

/**
 * Step 3 (portal-and-platform.md 4): a pending message; for an accepted API key subscription, the key
 * and a curl sample calling the API's entrypoint (its sharding tags' entrypoint, else portal.entrypoint,
 * then its context path) with the key in the gateway's key header (portal.apikeyHeader); for OAuth2 and
 * JWT, the same call with a bearer token.
 */
export function OutcomeStep({ api, subscription }: { api: PortalApi; subscription: WizardSubscription }) {
  const { t } = useTranslation();
  const config = useConfig();
  const entrypoints = useEntrypoints();
  const accepted = subscription.status === 'ACCEPTED';
  const withKey = accepted && subscription.plan.security === 'API_KEY';
  const keys = useSubscriptionKeys(withKey ? subscription.id : null);
  const values = { plan: subscription.plan.name, application: subscription.application.name };

  if (!accepted)
    return (
      <Alert
        variant="light"
        color="yellow"
        icon={<IconHourglass size={20} aria-hidden />}
        title={t('portalSubscribe.outcome.pendingTitle')}
        role="status"
      >
        {t('portalSubscribe.outcome.pending', values)}
      </Alert>
    );

  const entrypoint = entrypoints.isPending
    ? null
    : apiEntrypoints(api, entrypoints.data ?? [], config.portal.entrypoint)[0]!.value;
  const key = keys.data?.find((k) => !k.revoked && !k.expired)?.key;
  const header = config.portal.apikeyHeader || 'X-Api-Key';

  return (
    <Paper withBorder radius="md" p="lg">
      <Stack gap="md">
        <Group gap="xs" wrap="nowrap" role="status">
          <IconCircleCheck size={22} color="var(--mantine-color-green-8)" aria-hidden />
          <Text fw={600}>{t('portalSubscribe.outcome.accepted', values)}</Text>
        </Group>
        {withKey ? (
          !key || !entrypoint ? (
            <Skeleton height={120} />
          ) : (
            <>
              <section aria-labelledby="subscribe-key">
                <Title order={3} size="h5" id="subscribe-key" mb={6}>
                  {t('portalSubscribe.outcome.keyTitle')}
                </Title>
                <Copyable text={key} label={t('portalSubscribe.outcome.copyKey')} notice />
              </section>
              <Sample command={curlWithKey(entrypoint, header, key)} />
            </>
          )
        ) : !entrypoint ? (
          <Skeleton height={80} />
        ) : (
          <>
            <Text size="sm">{t('portalSubscribe.outcome.token', values)}</Text>
            <Sample command={curlWithToken(entrypoint)} />
          </>
        )}
      </Stack>
    </Paper>
  );
}
