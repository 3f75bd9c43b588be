import type { TranslationKey } from '../../../shared/i18n/keys';

/** An API as the support form's choice offers it (a search result or a subscribed API). */
export interface ApiChoice {
  id: string;
  name: string;
  version?: string | undefined;
}

/** An option of the choice: the API's id and its label. */
export interface ApiOption {
  value: string;
  label: string;
}

/**
 * The choice searches as the portal's catalogue does (portal-and-platform.md 2, API list): 300 ms after
 * the last key, only for a text longer than 3 characters, so that a letter or two never asks the server
 * for nearly every API.
 */
export const API_SEARCH_DELAY = 300;
export const API_SEARCH_MIN_LENGTH = 4;
/** At most the first 20 matches are offered, as the portal loads its lists by 20. */
export const API_CHOICE_LIMIT = 20;

export const apiOption = (api: ApiChoice): ApiOption => ({
  value: api.id,
  label: api.version ? `${api.name} (${api.version})` : api.name,
});

/** The first 20 matches of a search and how many there are. */
export function firstMatches(apis: ApiChoice[]): { apis: ApiOption[]; total: number } {
  return { apis: apis.slice(0, API_CHOICE_LIMIT).map(apiOption), total: apis.length };
}

/**
 * What to ask the server for: the typed text, trimmed, once longer than 3 characters; nothing while the
 * box shows the chosen API's label (the choice writes it there once an API is picked).
 */
export function apiSearchText(search: string, chosenLabel: string | undefined): string | undefined {
  const text = search.trim();
  if (text.length < API_SEARCH_MIN_LENGTH || search === chosenLabel) return undefined;
  return text;
}

/** What the choice's dropdown shows. */
export type ApiChoiceList =
  /** The first 20 matches of the search; `total` counts them all. */
  | { kind: 'found'; apis: ApiOption[]; total: number }
  /** Without a search: the chosen API (unless subscribed), then those the chosen application subscribes to. */
  | { kind: 'initial'; chosen: ApiOption | undefined; subscribed: ApiOption[] }
  /** A text instead of options. */
  | { kind: 'text'; text: TranslationKey; q?: string };

/**
 * The dropdown of the API choice. With a search in force: its matches once they come (the previous
 * search's while the next one is on its way), a waiting text before, a no-match text after. Without:
 * the chosen API and the APIs of the chosen application, else the hint to type.
 */
export function apiChoiceList(input: {
  /** The search in force (see apiSearchText), undefined without one. */
  query: string | undefined;
  /** The search waits for its pause or for the server. */
  pending: boolean;
  /** The server's matches of the last search that answered. */
  found: { apis: ApiOption[]; total: number } | undefined;
  /** The APIs the chosen application subscribes to. */
  subscribed: ApiChoice[] | undefined;
  chosen: ApiOption | undefined;
}): ApiChoiceList {
  const { query, pending, found, chosen } = input;
  if (query !== undefined) {
    if (found && (found.apis.length > 0 || !pending))
      return found.apis.length > 0
        ? { kind: 'found', apis: found.apis, total: found.total }
        : { kind: 'text', text: 'support.ticket.apiSearch.none', q: query };
    return { kind: 'text', text: 'support.ticket.apiSearch.searching' };
  }
  const subscribed = (input.subscribed ?? []).map(apiOption);
  const apart = chosen && !subscribed.some((o) => o.value === chosen.value) ? chosen : undefined;
  if (!apart && subscribed.length === 0) return { kind: 'text', text: 'support.ticket.apiSearch.hint' };
  return { kind: 'initial', chosen: apart, subscribed };
}
