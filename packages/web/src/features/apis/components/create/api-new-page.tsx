import {
  Anchor,
  Breadcrumbs,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { IconFileImport, IconWand } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { notifySuccess } from '../../notify';
import { useImportNewApi } from '../../api/import-export';
import { ImportForm } from './import-form';

/** management.apis.new (`/management/apis/new`): create an API from scratch, or import one. */
export function ApiNewPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const importApi = useImportNewApi();
  return (
    <Stack gap="lg" maw={1100}>
      <Breadcrumbs>
        <Anchor component={Link} to="/management/apis" size="sm">
          {t('apis.list.title')}
        </Anchor>
        <Text size="sm">{t('apis.new.title')}</Text>
      </Breadcrumbs>
      <div>
        <Title order={1} size="h2">
          {t('apis.new.title')}
        </Title>
        <Text c="dimmed">{t('apis.new.subtitle')}</Text>
      </div>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Paper withBorder radius="md" p="xl">
          <Stack gap="md" h="100%">
            <Group gap="sm">
              <ThemeIcon variant="light" size="lg" radius="md">
                <IconWand size={20} />
              </ThemeIcon>
              <Title order={2} size="h4">
                {t('apis.new.scratchTitle')}
              </Title>
            </Group>
            <Text size="sm" c="dimmed">
              {t('apis.new.scratchDescription')}
            </Text>
            <Group mt="auto">
              <Button component={Link} to="/management/apis/new/create">
                {t('apis.new.scratchButton')}
              </Button>
            </Group>
          </Stack>
        </Paper>
        <Paper withBorder radius="md" p="xl">
          <Stack gap="md">
            <Group gap="sm">
              <ThemeIcon variant="light" size="lg" radius="md">
                <IconFileImport size={20} />
              </ThemeIcon>
              <Title order={2} size="h4">
                {t('apis.new.importTitle')}
              </Title>
            </Group>
            <Text size="sm" c="dimmed">
              {t('apis.new.importDescription')}
            </Text>
            <ImportForm
              submitLabel={t('apis.import.submit')}
              pending={importApi.isPending}
              onImport={(request) =>
                importApi.mutate(request, {
                  onSuccess: (api) => {
                    notifySuccess('apis.import.created', { name: api.name });
                    void navigate(`/management/apis/${encodeURIComponent(api.id)}/portal`);
                  },
                })
              }
            />
          </Stack>
        </Paper>
      </SimpleGrid>
    </Stack>
  );
}
