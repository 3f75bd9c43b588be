import { describe, expect, it } from 'vitest';
import type { Page } from '../../shared/lib/paging';
import type { UserNotification } from './api/notifications';
import { newNotifications } from './desktop-notifications';

const page = (total: number, ids: string[]): Page<UserNotification> => ({
  data: ids.map((id) => ({ id, title: `t${id}`, message: `m${id}`, created_at: 0 })),
  metadata: {},
  page: { current: 1, size: ids.length, per_page: 20, total_pages: 1, total_elements: total },
});

describe('desktop notifications', () => {
  it('are raised for nothing on the first count', () => {
    expect(newNotifications(undefined, page(3, ['3', '2', '1']))).toEqual([]);
  });

  it('are raised for each notification beyond those already counted (newest first)', () => {
    expect(newNotifications(3, page(5, ['5', '4', '3', '2', '1'])).map((n) => n.id)).toEqual(['5', '4']);
  });

  it('are not raised when the count stays or drops (deleted notifications)', () => {
    expect(newNotifications(5, page(5, ['5']))).toEqual([]);
    expect(newNotifications(5, page(2, ['2', '1']))).toEqual([]);
  });
});
