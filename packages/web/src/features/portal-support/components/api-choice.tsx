import type { ComboboxData, OptionsFilter } from '@mantine/core';
import { Loader, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiChoiceList, ApiOption } from '../api/api-choice';
import { API_SEARCH_DELAY, API_SEARCH_MIN_LENGTH, apiChoiceList, apiSearchText } from '../api/api-choice';
import { useSubscribedApis, useSupportApiSearch } from '../api/tickets';

interface ApiChoiceFieldProps {
  /** The chosen API's id ('' for none). */
  value: string;
  onChange: (apiId: string) => void;
  /** The application chosen in the form, whose subscribed APIs are the first options. */
  application: { id: string; name: string } | undefined;
  disabled: boolean;
}

/** The server has filtered the options: the choice shows them as they are. */
const keepAll: OptionsFilter = ({ options }) => options;

function toData(list: ApiChoiceList, application: string, t: TFunction): ComboboxData {
  if (list.kind === 'found')
    return list.total > list.apis.length
      ? [
          {
            group: t('support.ticket.apiSearch.firstMatches', { shown: list.apis.length, total: list.total }),
            items: list.apis,
          },
        ]
      : list.apis;
  if (list.kind === 'initial')
    return [
      ...(list.chosen ? [list.chosen] : []),
      ...(list.subscribed.length > 0
        ? [{ group: t('support.ticket.apiSearch.subscribed', { application }), items: list.subscribed }]
        : []),
    ];
  return [];
}

/**
 * The ticket's API (portal-and-platform.md 2, Support ticket form), found with the catalogue's search as
 * the user types instead of a list of every API: at most the first 20 matches; before any search, the
 * APIs the chosen application subscribes to.
 */
export function ApiChoiceField({ value, onChange, application, disabled }: ApiChoiceFieldProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [picked, setPicked] = useState<ApiOption | undefined>();
  // After the form's reset the value is empty again, and so is the choice.
  const chosen = picked && picked.value === value ? picked : undefined;
  const query = apiSearchText(search, chosen?.label);
  const [debounced] = useDebouncedValue(query, API_SEARCH_DELAY);
  const found = useSupportApiSearch(debounced);
  const subscribed = useSubscribedApis(application?.id ?? '');
  const pending = query !== debounced || found.isFetching;
  const list = apiChoiceList({
    query,
    pending,
    found: debounced === undefined ? undefined : found.data,
    subscribed: subscribed.data,
    chosen,
  });

  return (
    <Select
      label={t('support.ticket.api')}
      placeholder={t('support.ticket.apiPlaceholder')}
      data={toData(list, application?.name ?? '', t)}
      filter={keepAll}
      // The list of options itself scrolls (up to 20 of them): a listbox the combobox controls, which
      // the arrow keys scroll, where a scroll area's viewport would be a region a keyboard cannot reach.
      withScrollArea={false}
      withAlignedLabels
      styles={{ options: { maxHeight: 260, overflowY: 'auto' } }}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      clearable
      disabled={disabled}
      value={value || null}
      onChange={(id, option) => {
        const next = id && option ? { value: id, label: option.label } : undefined;
        setPicked(next);
        // The box shows the chosen API's label, and that is no search (nor the previous choice's label).
        setSearch(next?.label ?? '');
        onChange(id ?? '');
      }}
      nothingFoundMessage={
        list.kind === 'text' ? t(list.text, { q: list.q, min: API_SEARCH_MIN_LENGTH }) : undefined
      }
      rightSection={query !== undefined && pending ? <Loader size={14} /> : undefined}
    />
  );
}
