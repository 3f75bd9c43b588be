import { useMemo } from 'react';
import type { CatalogueApi } from '../../features/portal-catalogue/api/catalogue';
import { useCatalogueViews } from '../../features/portal-catalogue/api/catalogue';
import { ApiTile } from '../../features/portal-catalogue/components/api-card';
import classes from './home-page.module.css';

/**
 * The home page's top APIs as the catalogue's cards (picture, name, version, description, views, stars).
 * Loaded on its own once there are top APIs to show, so that the portal's first load stays small.
 */
export default function TopApiCards({ apis }: { apis: CatalogueApi[] }) {
  const views = useCatalogueViews();
  const viewNames = useMemo(() => new Map((views.data ?? []).map((v) => [v.id, v.name])), [views.data]);
  return (
    <ul className={classes.tiles} aria-labelledby="home-top-apis">
      {apis.map((api) => (
        <li key={api.id}>
          <ApiTile api={api} viewNames={viewNames} />
        </li>
      ))}
    </ul>
  );
}
