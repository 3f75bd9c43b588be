import { describe, expect, it } from 'vitest';
import { serverMessageKey } from './server-messages';

describe('server messages the app translates', () => {
  it('never shows a raw permission name: a refusal becomes a translated sentence', () => {
    expect(serverMessageKey('You do not have the permission api-member-r')).toBe('errors.forbidden');
    expect(serverMessageKey('You do not have the permission management-audit-r or portal-settings-r')).toBe(
      'errors.forbidden',
    );
  });

  it('keeps other server texts as sent', () => {
    expect(serverMessageKey('Wrong user or password')).toBe('errors.wrongCredentials');
    expect(serverMessageKey('The plan is closed')).toBeUndefined();
  });
});
