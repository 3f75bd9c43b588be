import { describe, expect, it } from 'vitest';
import { compileProfileCondition, conditionIssue, mappedClaim } from './mappings.js';

const profile = { email: 'ada@corp.test', groups: ['admins'], id: 42, name: { first: 'Ada' } };

describe('mapping conditions over the user profile', () => {
  it('evaluates CEL over `profile`', () => {
    expect(compileProfileCondition("profile.email.endsWith('@corp.test')")(profile)).toBe(true);
    expect(compileProfileCondition("'admins' in profile.groups")(profile)).toBe(true);
    expect(compileProfileCondition('profile.id == 42')(profile)).toBe(true);
    expect(compileProfileCondition("profile.email == 'bob@corp.test'")(profile)).toBe(false);
  });

  it("accepts Gravitee's form {#jsonPath(#profile, '$.email') == 'x'}", () => {
    expect(compileProfileCondition("{#jsonPath(#profile, '$.email') == 'ada@corp.test'}")(profile)).toBe(
      true,
    );
    expect(compileProfileCondition("{#jsonPath(#profile, '$.email') == 'x'}")(profile)).toBe(false);
  });

  it('is false, not an error, when a claim is missing', () => {
    expect(compileProfileCondition("profile.missing == 'x'")(profile)).toBe(false);
  });

  it('names what is wrong with an invalid condition', () => {
    expect(conditionIssue('profile.email ===')).toMatch(/not a valid expression/);
    expect(conditionIssue('true')).toBeUndefined();
  });

  it('reads profile fields by claim name, path or expression', () => {
    expect(mappedClaim(profile, 'id')).toBe('42');
    expect(mappedClaim(profile, '$.name.first')).toBe('Ada');
    expect(mappedClaim(profile, "{profile.name.first + '!'}")).toBe('Ada!');
    expect(mappedClaim(profile, 'nothing')).toBeNull();
    expect(mappedClaim(profile, '')).toBeNull();
  });
});
