/**
 * Sharding tags: a gateway configured with tags serves the APIs carrying one of them; `!tag` excludes
 * the APIs that carry it. A gateway without tags serves every API.
 */
export function servesApi(gatewayTags: readonly string[], apiTags: readonly string[]): boolean {
  if (gatewayTags.length === 0) return true;
  const include = gatewayTags.filter((t) => !t.startsWith('!'));
  const exclude = gatewayTags.filter((t) => t.startsWith('!')).map((t) => t.slice(1));
  if (apiTags.some((t) => exclude.includes(t))) return false;
  if (include.length === 0) return true;
  return apiTags.some((t) => include.includes(t));
}
