import { Button, Divider, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CatalogueApi } from '../api/catalogue';
import { PAGE_INCREMENT } from '../api/catalogue';
import type { ApiTileLinks } from './api-card';
import { ApiRow, ApiTile } from './api-card';
import classes from './catalogue.module.css';

interface ApiResultsProps {
  apis: CatalogueApi[];
  tiles: boolean;
  viewNames: ReadonlyMap<string, string>;
  /** Tiles that also link to the API's ratings and documentation (the view page). */
  links?: ApiTileLinks | undefined;
}

/** APIs as tiles or rows, shown by increments of 20 with a button for the next ones. */
export function ApiResults({ apis, tiles, viewNames, links }: ApiResultsProps) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(PAGE_INCREMENT);
  const visible = apis.slice(0, shown);

  return (
    <Stack gap="md">
      {tiles ? (
        <div className={classes.tiles} data-testid="api-tiles">
          {visible.map((api) => (
            <ApiTile key={api.id} api={api} viewNames={viewNames} links={links} />
          ))}
        </div>
      ) : (
        <Paper withBorder radius="md" data-testid="api-list">
          {visible.map((api, index) => (
            <Fragment key={api.id}>
              {index > 0 && <Divider />}
              <ApiRow api={api} viewNames={viewNames} />
            </Fragment>
          ))}
        </Paper>
      )}
      {apis.length > shown && (
        <SimpleGrid cols={1}>
          <Button variant="default" onClick={() => setShown((n) => n + PAGE_INCREMENT)}>
            {t('catalogue.more', { shown: visible.length, total: apis.length })}
          </Button>
        </SimpleGrid>
      )}
      <Text size="sm" c="dimmed" ta="center">
        {t('catalogue.count', { count: apis.length })}
      </Text>
    </Stack>
  );
}
