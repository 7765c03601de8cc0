import { useQuery } from '@tanstack/react-query';
import { notificationsQuery } from '../../lib/queries.ts';

/** How many of the user's notifications are unread (0 while they load): the bell's and the badges' number. */
export function useUnreadCount(): number {
  const { data } = useQuery(notificationsQuery());
  return data?.filter((notification) => !notification.isRead).length ?? 0;
}
