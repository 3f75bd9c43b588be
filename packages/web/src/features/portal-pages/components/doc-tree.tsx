import { NavLink } from '@mantine/core';
import { IconFileText, IconFolder, IconFolderOpen } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import type { DocNode } from './doc-tree-model';
import { isFolder } from './doc-tree-model';

interface DocTreeProps {
  nodes: DocNode[];
  /** The route of a page. */
  pathOf: (pageId: string) => string;
  selected: string | undefined;
  /** The folders open at first (those of the selected page). */
  initiallyOpen: string[];
}

/** The documentation tree: a folder opens or closes; a page is a link to its route. */
export function DocTree({ nodes, pathOf, selected, initiallyOpen }: DocTreeProps) {
  const [open, setOpen] = useState(() => new Set(initiallyOpen));
  const toggle = (id: string, opened: boolean) =>
    setOpen((current) => {
      const next = new Set(current);
      if (opened) next.add(id);
      else next.delete(id);
      return next;
    });
  const render = (list: DocNode[]) =>
    list.map(({ page, children }) =>
      isFolder(page) ? (
        <NavLink
          key={page.id}
          component="button"
          type="button"
          aria-expanded={open.has(page.id)}
          label={page.name}
          leftSection={open.has(page.id) ? <IconFolderOpen size={16} /> : <IconFolder size={16} />}
          opened={open.has(page.id)}
          onChange={(opened) => toggle(page.id, opened)}
          childrenOffset="md"
        >
          {render(children)}
        </NavLink>
      ) : (
        <NavLink
          key={page.id}
          component={Link}
          to={pathOf(page.id)}
          label={page.name}
          leftSection={<IconFileText size={16} />}
          active={page.id === selected}
          aria-current={page.id === selected ? 'page' : undefined}
        />
      ),
    );
  return <>{render(nodes)}</>;
}
