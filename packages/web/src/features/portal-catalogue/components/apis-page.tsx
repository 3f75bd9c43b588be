import {
  ActionIcon,
  Box,
  Button,
  Container,
  EmptyState,
  Group,
  Loader,
  NavLink,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconApi, IconLayoutGrid, IconList, IconSearch, IconX } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useSearchParams } from 'react-router';
import { useConfig } from '../../../shared/config/config-context';
import { readStored, StorageKeys, writeStored } from '../../../shared/lib/storage';
import type { CatalogueView } from '../api/catalogue';
import {
  ALL_VIEW,
  RESULTS_VIEW,
  SEARCH_DELAY,
  SEARCH_MIN_LENGTH,
  useSearchApis,
  useViewApis,
  useVisibleViews,
} from '../api/catalogue';
import { ApiResults } from './api-results';
import classes from './catalogue.module.css';

/** The view shown when the route names none: the default view, else the first one. */
export function defaultViewOf(views: CatalogueView[]): string {
  return (views.find((v) => v.defaultView) ?? views[0])?.id ?? ALL_VIEW;
}

/** The tiles/list choice, kept in local storage (`portico.tilesMode`); its default from configuration. */
function useTilesMode(): [boolean, (tiles: boolean) => void] {
  const config = useConfig();
  const [tiles, setTiles] = useState(() =>
    readStored<boolean>(StorageKeys.tilesMode, config.portal.apis.tilesMode.enabled),
  );
  return [
    tiles,
    (value) => {
      setTiles(value);
      writeStored(StorageKeys.tilesMode, value);
    },
  ];
}

/** `/apis`: in views mode without a view or query, the views list instead. */
export function ApisEntry() {
  const config = useConfig();
  const [params] = useSearchParams();
  if (config.portal.apis.viewMode.enabled && !params.get('view') && !params.get('q')) {
    return <Navigate to="/views" replace />;
  }
  return <ApisPage />;
}

/**
 * The API list (portal-and-platform.md 2, /apis): the views holding APIs in a side navigation with the
 * results pseudo-view of a search, a search box firing after a 300 ms pause above 3 characters, the
 * tiles/list toggle, and the APIs by increments of 20.
 */
export function ApisPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const q = params.get('q')?.trim() || undefined;
  const [text, setText] = useState(q ?? '');
  const [tiles, setTiles] = useTilesMode();
  const views = useVisibleViews();
  const shownViews = views.data;
  const viewNames = useMemo(() => new Map(views.views.map((v) => [v.id, v.name])), [views.views]);
  const view = q
    ? RESULTS_VIEW
    : (params.get('view') ?? (views.isPending ? undefined : defaultViewOf(shownViews)));
  const listed = useViewApis(q ? undefined : view);
  const found = useSearchApis(q);
  const current = q ? found : listed;

  const search = (value: string) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete('view');
        if (value) next.set('q', value);
        else next.delete('q');
        return next;
      },
      { replace: true },
    );

  // A view chosen in the side navigation (or the browser's back button) changes the query: the box follows.
  const [boxQuery, setBoxQuery] = useState(q);
  if (boxQuery !== q) {
    setBoxQuery(q);
    setText(q ?? '');
  }

  useEffect(() => {
    const value = text.trim();
    if (value === (q ?? '')) return undefined;
    if (value.length > 0 && value.length < SEARCH_MIN_LENGTH) return undefined;
    const timer = setTimeout(() => search(value), SEARCH_DELAY);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the pause restarts on each keystroke only
  }, [text]);

  const viewLink = (id: string) => `/apis?view=${encodeURIComponent(id)}`;

  return (
    <Container size="xl" py="xl">
      <Title order={1} mb="lg">
        {t('catalogue.title')}
      </Title>
      <div className={classes.layout}>
        <Box component="nav" aria-label={t('catalogue.viewsNav')} className={classes.sideNav}>
          {views.isPending && <Loader size="sm" />}
          {shownViews.map((v) => (
            <NavLink
              key={v.id}
              component={Link}
              to={viewLink(v.id)}
              label={v.name}
              rightSection={
                <Text size="xs" c="dimmed">
                  {v.totalApis}
                </Text>
              }
              active={view === v.id}
              aria-current={view === v.id ? 'page' : undefined}
            />
          ))}
          {q && (
            <NavLink
              component={Link}
              to={`/apis?q=${encodeURIComponent(q)}`}
              label={t('catalogue.results')}
              leftSection={<IconSearch size={16} />}
              rightSection={
                found.data ? (
                  <Text size="xs" c="dimmed">
                    {found.data.length}
                  </Text>
                ) : undefined
              }
              active
              aria-current="page"
            />
          )}
        </Box>
        <Stack gap="md">
          <Group gap="sm" wrap="wrap">
            <form
              role="search"
              style={{ flex: 1, minWidth: 240 }}
              onSubmit={(event) => {
                event.preventDefault();
                search(text.trim());
              }}
            >
              <Group gap="sm" wrap="nowrap">
                <TextInput
                  flex={1}
                  value={text}
                  onChange={(event) => setText(event.currentTarget.value)}
                  placeholder={t('catalogue.searchPlaceholder')}
                  aria-label={t('catalogue.searchLabel')}
                  leftSection={<IconSearch size={16} />}
                  rightSection={
                    text ? (
                      <ActionIcon
                        variant="subtle"
                        color="gray"
                        aria-label={t('catalogue.clear')}
                        onClick={() => {
                          setText('');
                          search('');
                        }}
                      >
                        <IconX size={14} />
                      </ActionIcon>
                    ) : undefined
                  }
                />
                <Button type="submit">{t('catalogue.search')}</Button>
              </Group>
            </form>
            <SegmentedControl
              aria-label={t('catalogue.display')}
              value={tiles ? 'tiles' : 'list'}
              onChange={(value) => setTiles(value === 'tiles')}
              data={[
                {
                  value: 'tiles',
                  label: (
                    <>
                      <IconLayoutGrid size={16} aria-hidden />
                      <VisuallyHidden>{t('catalogue.tiles')}</VisuallyHidden>
                    </>
                  ),
                },
                {
                  value: 'list',
                  label: (
                    <>
                      <IconList size={16} aria-hidden />
                      <VisuallyHidden>{t('catalogue.list')}</VisuallyHidden>
                    </>
                  ),
                },
              ]}
            />
          </Group>
          {current.isPending ? (
            <Group justify="center" py="xl">
              <Loader />
            </Group>
          ) : current.data && current.data.length > 0 ? (
            <ApiResults key={`${view}|${q}`} apis={current.data} tiles={tiles} viewNames={viewNames} />
          ) : (
            <Box className={classes.panel}>
              <EmptyState
                icon={<IconApi size={32} stroke={1.5} />}
                variant="light"
                title={q ? t('catalogue.noResult', { q }) : t('apis.empty.title')}
                description={q ? t('catalogue.noResultHint') : t('apis.empty.description')}
                py={48}
              />
            </Box>
          )}
        </Stack>
      </div>
    </Container>
  );
}
