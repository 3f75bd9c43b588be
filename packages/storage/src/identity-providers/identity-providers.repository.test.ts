import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../testing.js';
import {
  findEnabledIdentityProviders,
  findIdentityProviderById,
  insertIdentityProvider,
} from './identity-providers.repository.js';

const NOW = 1_790_000_000_000;

for (const dialect of await testDialects()) {
  describe(`${dialect}: identity providers repository`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase(dialect);
    });
    afterAll(async () => t.destroy());

    it('lists the enabled providers by name and finds one by id', async () => {
      const provider = (id: string, name: string, enabled: number) =>
        insertIdentityProvider(t.storage.db, {
          id,
          type: 'oidc',
          name,
          description: null,
          enabled,
          email_required: 1,
          configuration: '{"clientId":"c"}',
          group_mappings: '[]',
          role_mappings: '[]',
          user_profile_mapping: '{}',
          created_at: NOW,
          updated_at: NOW,
        });
      await provider('z', 'Zeta', 1);
      await provider('a', 'Alpha', 1);
      await provider('off', 'Beta', 0);
      expect((await findEnabledIdentityProviders(t.storage.db)).map((p) => p.id)).toEqual(['a', 'z']);
      expect((await findIdentityProviderById(t.storage.db, 'off'))?.enabled).toBe(0);
    });
  });
}
