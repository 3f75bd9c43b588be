import { Combobox, Group, Loader, Pill, PillsInput, Text, useCombobox } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { http } from '../http';

/** A user of `GET search/users`. */
export interface UserSearchResult {
  id: string;
  reference: string;
  displayName: string;
  email: string | null;
}

/** Autocomplete of users: from one character, 500 ms after the last key (console-apis.md section 9). */
export const USER_SEARCH_DELAY = 500;

/** `GET search/users?q=`: users by name or email (from one character). */
export const useUserSearch = (q: string) =>
  useQuery({
    queryKey: ['search', 'users', q] as const,
    queryFn: ({ signal }) => http.get<UserSearchResult[]>('search/users', { query: { q }, signal }),
    enabled: q.trim().length >= 1,
    placeholderData: keepPreviousData,
  });

/**
 * Users found by name or email from one character, 500 ms after the last key; users already members or
 * already picked are left out.
 */
export function UserPicker({
  label,
  value,
  onChange,
  excluded,
  multiple = true,
  error,
}: {
  label: string;
  value: UserSearchResult[];
  onChange: (users: UserSearchResult[]) => void;
  excluded: ReadonlySet<string>;
  multiple?: boolean;
  error?: string;
}) {
  const { t } = useTranslation();
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), USER_SEARCH_DELAY);
  const users = useUserSearch(debounced);
  const chosen = new Set(value.map((u) => u.id));
  const found = (users.data ?? []).filter((u) => !excluded.has(u.id) && !chosen.has(u.id));
  const waiting = search.trim() !== debounced || users.isFetching;

  return (
    <Combobox
      store={combobox}
      onOptionSubmit={(id) => {
        const user = found.find((u) => u.id === id);
        if (user) onChange(multiple ? [...value, user] : [user]);
        setSearch('');
        combobox.closeDropdown();
      }}
    >
      <Combobox.DropdownTarget>
        <PillsInput
          label={label}
          error={error}
          rightSection={waiting && debounced ? <Loader size={16} /> : null}
        >
          <Pill.Group>
            {value.map((user) => (
              <Pill
                key={user.id}
                withRemoveButton
                removeButtonProps={{
                  'aria-label': t('common.userPicker.unpick', { name: user.displayName }),
                }}
                onRemove={() => onChange(value.filter((u) => u.id !== user.id))}
              >
                {user.displayName}
              </Pill>
            ))}
            {(multiple || value.length === 0) && (
              <Combobox.EventsTarget>
                <PillsInput.Field
                  value={search}
                  placeholder={t('common.userPicker.placeholder')}
                  aria-label={label}
                  onFocus={() => combobox.openDropdown()}
                  onBlur={() => combobox.closeDropdown()}
                  onChange={(event) => {
                    setSearch(event.currentTarget.value);
                    combobox.openDropdown();
                    combobox.updateSelectedOptionIndex();
                  }}
                  onKeyDown={(event) => {
                    if (event.key === 'Backspace' && search === '' && value.length > 0) {
                      event.preventDefault();
                      onChange(value.slice(0, -1));
                    }
                  }}
                />
              </Combobox.EventsTarget>
            )}
          </Pill.Group>
        </PillsInput>
      </Combobox.DropdownTarget>
      <Combobox.Dropdown hidden={!debounced}>
        <Combobox.Options>
          {found.map((user) => (
            <Combobox.Option value={user.id} key={user.id}>
              <Group gap="xs" wrap="nowrap">
                <Text size="sm">{user.displayName}</Text>
                {user.email && (
                  <Text size="xs" c="dimmed">
                    {user.email}
                  </Text>
                )}
              </Group>
            </Combobox.Option>
          ))}
          {!waiting && found.length === 0 && (
            <Combobox.Empty>{t('common.userPicker.noUser', { q: debounced })}</Combobox.Empty>
          )}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
