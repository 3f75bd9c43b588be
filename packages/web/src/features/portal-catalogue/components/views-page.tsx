import {
  Avatar,
  Badge,
  Card,
  Container,
  EmptyState,
  Group,
  Loader,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconCategory, IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useVisibleViews } from '../api/catalogue';
import classes from './catalogue.module.css';

/** `/views`: the views holding at least one API, as a grid with a filter (name, count, picture, description). */
export function ViewsPage() {
  const { t } = useTranslation();
  const views = useVisibleViews();
  const [filter, setFilter] = useState('');
  const words = filter.trim().toLowerCase();
  const shown = views.data.filter(
    (v) => !words || `${v.name} ${v.description ?? ''}`.toLowerCase().includes(words),
  );

  return (
    <Container size="xl" py="xl">
      <Group justify="space-between" align="flex-end" mb="lg" wrap="wrap">
        <Title order={1}>{t('catalogue.viewsTitle')}</Title>
        <TextInput
          value={filter}
          onChange={(event) => setFilter(event.currentTarget.value)}
          placeholder={t('catalogue.viewsFilter')}
          aria-label={t('catalogue.viewsFilter')}
          leftSection={<IconSearch size={16} />}
          w={280}
        />
      </Group>
      {views.isPending ? (
        <Group justify="center" py="xl">
          <Loader />
        </Group>
      ) : shown.length === 0 ? (
        <EmptyState
          className={classes.panel}
          icon={<IconCategory size={32} stroke={1.5} />}
          variant="light"
          title={t('catalogue.noView')}
          py={48}
        />
      ) : (
        <div className={classes.tiles}>
          {shown.map((view) => (
            <Card
              key={view.id}
              withBorder
              radius="md"
              padding="lg"
              component={Link}
              to={`/views/${encodeURIComponent(view.id)}`}
              className={classes.card}
            >
              <Group wrap="nowrap" gap="sm" justify="space-between">
                <Group wrap="nowrap" gap="sm" style={{ minWidth: 0 }}>
                  <Avatar src={view.picture_url} alt="" radius="md" size={48} color="grape">
                    <IconCategory size={24} />
                  </Avatar>
                  <Text fw={600} size="lg" truncate="end">
                    {view.name}
                  </Text>
                </Group>
                <Badge variant="light" tt="none">
                  {t('catalogue.apiCount', { count: view.totalApis })}
                </Badge>
              </Group>
              <Stack gap={0} className={classes.description}>
                <Text size="sm" c="dimmed" lineClamp={3}>
                  {view.description}
                </Text>
              </Stack>
            </Card>
          ))}
        </div>
      )}
    </Container>
  );
}
