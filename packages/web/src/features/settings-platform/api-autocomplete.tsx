import { Combobox, Group, Loader, Text, TextInput, useCombobox } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiSummary } from './api/views';
import { useApiSearch } from './api/views';

/** Autocomplete delay and minimum length (console-applications-and-settings.md 9). */
export const API_SEARCH_DELAY = 500;

/**
 * APIs found by words of their name from one character, 500 ms after the last key; APIs already
 * chosen are left out. Picking one calls `onPick` and empties the field.
 */
export function ApiAutocomplete({
  label,
  excluded,
  onPick,
  disabled = false,
}: {
  label: string;
  excluded: ReadonlySet<string>;
  onPick: (api: ApiSummary) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), API_SEARCH_DELAY);
  const apis = useApiSearch(debounced);
  const found = (apis.data ?? []).filter((api) => !excluded.has(api.id));
  const waiting = search.trim() !== debounced || apis.isFetching;

  return (
    <Combobox
      store={combobox}
      onOptionSubmit={(id) => {
        const api = found.find((a) => a.id === id);
        if (api) onPick(api);
        setSearch('');
        combobox.closeDropdown();
      }}
    >
      <Combobox.Target>
        <TextInput
          label={label}
          value={search}
          disabled={disabled}
          placeholder={t('settingsViews.apiSearch.placeholder')}
          leftSection={<IconSearch size={16} aria-hidden />}
          rightSection={waiting && debounced ? <Loader size={16} /> : null}
          autoComplete="off"
          onFocus={() => combobox.openDropdown()}
          onBlur={() => combobox.closeDropdown()}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            combobox.openDropdown();
            combobox.updateSelectedOptionIndex();
          }}
        />
      </Combobox.Target>
      <Combobox.Dropdown hidden={!debounced}>
        <Combobox.Options aria-label={label}>
          {found.map((api) => (
            <Combobox.Option value={api.id} key={api.id}>
              <Group gap="xs" wrap="nowrap">
                <Text size="sm">{api.name}</Text>
                <Text size="xs" c="dimmed">
                  {api.version} · {api.context_path}
                </Text>
              </Group>
            </Combobox.Option>
          ))}
          {!waiting && found.length === 0 && (
            <Combobox.Empty>{t('settingsViews.apiSearch.none', { q: debounced })}</Combobox.Empty>
          )}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
