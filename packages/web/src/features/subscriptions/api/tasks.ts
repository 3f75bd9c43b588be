import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { http } from '../../../shared/http';
import type { Page } from '../../../shared/lib/paging';
import { subscriptionKeys } from './subscription-keys';
import type { Task } from './types';

/** `GET user/tasks?page&size`: the subscriptions waiting for the user's validation, oldest first. */
export const useTasks = (page: number, size: number) =>
  useQuery({
    queryKey: subscriptionKeys.tasks(page, size),
    queryFn: ({ signal }) => http.get<Page<Task>>('user/tasks', { query: { page, size }, signal }),
    placeholderData: keepPreviousData,
  });
