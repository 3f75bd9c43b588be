import type { Executor } from '@portico/storage';
import { insertNotification } from '@portico/storage';
import { newId } from '../../http/ids.js';

/** Notifications shown to users in the top bar (`GET user/notifications`). */
export class NotificationService {
  constructor(private readonly now: () => number) {}

  async notify(db: Executor, userIds: Iterable<string>, title: string, message: string): Promise<void> {
    for (const userId of new Set(userIds)) {
      await insertNotification(db, { id: newId(), user_id: userId, title, message, created_at: this.now() });
    }
  }
}
