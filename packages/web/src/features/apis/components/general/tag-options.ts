/** An option of the sharding tags picker. */
export interface TagOption {
  value: string;
  label: string;
  disabled: boolean;
}

/**
 * The sharding tags an API can carry (console-applications-and-settings.md 6): every tag known (all
 * tags for their readers, else the usable ones) and those on the API; a tag the user may not use (not in
 * `GET user/tags`: restricted to groups the user is not in) is disabled. While the usable tags are not
 * known, nothing is disabled.
 */
export function tagOptions(
  usable: readonly string[] | undefined,
  all: readonly { id: string; name: string }[] | undefined,
  current: readonly string[],
): TagOption[] {
  const names = new Map((all ?? []).map((tag) => [tag.id, tag.name]));
  const ids = [...new Set([...(all ?? []).map((tag) => tag.id), ...(usable ?? []), ...current])];
  return ids.map((value) => ({
    value,
    label: names.get(value) ?? value,
    disabled: usable !== undefined && !usable.includes(value),
  }));
}
