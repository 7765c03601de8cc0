import * as v from 'valibot';
import { MessageParams } from './messages.ts';

/** One notification as GET /api/notifications answers it, newest first. */
export const NotificationBody = v.object({
  id: v.string(),
  userId: v.string(),
  title: v.string(),
  message: v.string(),
  /** NOTIFICATION_TEXTS key and its parameters, to render title and message in the reader's language; absent for older ones. */
  key: v.optional(v.string()),
  params: v.optional(MessageParams),
  /** success, warning, error or info. */
  type: v.string(),
  isRead: v.boolean(),
  createdAt: v.string(),
});
export type NotificationBody = v.InferOutput<typeof NotificationBody>;
