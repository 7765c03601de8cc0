import * as v from 'valibot';

/** One notification as GET /api/notifications answers it, newest first. */
export const NotificationBody = v.object({
  id: v.string(),
  userId: v.string(),
  title: v.string(),
  message: v.string(),
  /** success, warning, error or info. */
  type: v.string(),
  isRead: v.boolean(),
  createdAt: v.string(),
});
export type NotificationBody = v.InferOutput<typeof NotificationBody>;
