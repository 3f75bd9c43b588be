/** Settings > Sharding Tags (loaded on first use): the list, the tag and entrypoint forms. */
export { TagsPage } from './tags/tags-page';
export { TagPage } from './tags/tag-page';
export { EntrypointPage } from './tags/entrypoint-page';
