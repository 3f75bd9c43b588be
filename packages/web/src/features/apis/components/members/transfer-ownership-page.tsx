import { Alert, Button, Group, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { notifySuccess } from '../../notify';
import { useFrameApi } from '../../api/get-api';
import { useApiRoles, useTransferOwnership } from '../../api/members';
import type { UserSearchResult } from '../../api/types';
import { assignableRoles } from '../../../../shared/ui/members-tables';
import { UserPicker } from '../../../../shared/ui/user-picker';

/**
 * `/transferownership`: a new primary owner (not the current one) and the role the previous owner keeps
 * (PRIMARY_OWNER and system roles are not offered).
 */
export function TransferOwnershipPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { apiId = '' } = useParams();
  const { api } = useFrameApi(apiId);
  const roles = useApiRoles();
  const transfer = useTransferOwnership(apiId);
  const [owner, setOwner] = useState<UserSearchResult[]>([]);
  const [role, setRole] = useState<string | null>(null);
  const assignable = assignableRoles(roles.data);
  const chosenRole = role ?? assignable.find((r) => r.default)?.name ?? null;
  const excluded = new Set(api.owner ? [api.owner.id] : []);
  return (
    <Stack gap="lg">
      <div>
        <Title order={2} size="h3">
          {t('apis.members.transferTitle')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('apis.members.transferHint', { owner: api.owner?.displayName ?? '—' })}
        </Text>
      </div>
      <Paper withBorder radius="md" p="xl">
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            const next = owner[0];
            if (!next || !chosenRole) return;
            transfer.mutate(
              { id: next.id, role: chosenRole },
              {
                onSuccess: () => {
                  notifySuccess('apis.members.transferred', { name: next.displayName });
                  void navigate(`/management/apis/${encodeURIComponent(apiId)}/members`);
                },
              },
            );
          }}
        >
          <Stack gap="md">
            <UserPicker
              label={t('apis.members.newOwner')}
              value={owner}
              onChange={setOwner}
              excluded={excluded}
              multiple={false}
            />
            <Select
              label={t('apis.members.previousOwnerRole')}
              withAsterisk
              data={assignable.map((r) => ({ value: r.name, label: r.name }))}
              value={chosenRole}
              allowDeselect={false}
              onChange={setRole}
            />
            <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />}>
              {t('apis.members.transferWarning')}
            </Alert>
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={() => void navigate(-1)}>
                {t('apis.confirm.cancel')}
              </Button>
              <Button
                type="submit"
                color="orange"
                loading={transfer.isPending}
                disabled={owner.length === 0 || !chosenRole}
              >
                {t('apis.members.transferConfirm')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}
