import { queryOptions } from '@tanstack/react-query';
import type {
  AppealBody,
  AppealStatus,
  FinanceWithdrawalBody,
  NotificationBody,
  SavedDestinationBody,
  WithdrawalQuoteBody,
  SettingsBody,
  SubmissionBody,
  SubmissionStatus,
  TaskBody,
  TaskFiguresBody,
  TransactionBody,
  UserBody,
  UserTaskBody,
  WithdrawalBody,
  WithdrawalStatus,
  TaskSignalBody,
} from '@kamai/contracts';
import { getAllPages, getJson, getQueryFn, throwIfNotOk } from './http.ts';
import { positionHeaders } from './logPosition.ts';
import { forgetSessionHint, mayHaveSession } from './sessionHint.ts';

/**
 * Every server read of the app, one `queryOptions` factory each. A route's `beforeLoad`/`loader`
 * ensures the data with the same factory its component then reads, and a mutation invalidates exactly
 * the keys it changes (`queryClient.invalidateQueries({ queryKey: currentUserQuery().queryKey })`).
 * A key is the request path: the default query function joins its segments with '/'.
 */

const readUser = getQueryFn<UserBody>({ on401: 'returnNull' });

/** The signed-in user; null when not signed in (the API answers 401, or this browser has no session). */
export const currentUserQuery = () =>
  queryOptions({
    queryKey: ['/api/auth/user'],
    queryFn: async (context) => {
      // A browser without a session is known without asking (sessionHint.ts); a 401 clears the hint.
      if (!mayHaveSession()) return null;
      const user = await readUser(context);
      if (user === null) forgetSessionHint();
      return user;
    },
  });

/** The active tasks users can do, newest first. */
export const tasksQuery = () =>
  queryOptions({
    queryKey: ['/api/tasks'],
    queryFn: getJson<TaskBody[]>(),
  });

/** The signed-in user's task statuses; a task without a record is 'pending' (Not Started). */
export const userTasksQuery = () =>
  queryOptions({
    queryKey: ['/api/user-tasks'],
    queryFn: getJson<UserTaskBody[]>(),
  });

/** The signed-in user's notifications, newest first. */
export const notificationsQuery = () =>
  queryOptions({
    queryKey: ['/api/notifications'],
    queryFn: getJson<NotificationBody[]>(),
  });

/** The whole task catalogue, inactive tasks included (admin role). */
export const adminTasksQuery = () =>
  queryOptions({
    queryKey: ['/api/admin/tasks'],
    queryFn: getJson<TaskBody[]>(),
  });

/** Per catalogue task: slots, money approved and under review, approval rate, expiry (admin role). */
export const adminTaskFiguresQuery = () =>
  queryOptions({
    queryKey: ['/api/admin/task-figures'],
    queryFn: getJson<TaskFiguresBody[]>(),
  });

/**
 * One catalogue task with its ETag (the task's revision), which an edit or delete sends back in
 * If-Match so that a change made meanwhile by another admin is refused, not overwritten.
 */
export const adminTaskQuery = (id: string) =>
  queryOptions({
    queryKey: ['/api/admin/tasks', id],
    queryFn: async ({ signal }): Promise<{ task: TaskBody; etag: string }> => {
      const response = await fetch(`/api/admin/tasks/${encodeURIComponent(id)}`, { credentials: 'include', signal, headers: positionHeaders() });
      await throwIfNotOk(response);
      return { task: (await response.json()) as TaskBody, etag: response.headers.get('ETag') ?? '' };
    },
    // Always the newest revision when a dialog opens.
    staleTime: 0,
    gcTime: 0,
  });

/** The key prefix of every status of the proof review queue: invalidating it refreshes them all. */
export const SUBMISSIONS_KEY = ['/api/admin/submissions'] as const;

/** The proof review queue (reviewer or admin role): `GET /api/admin/submissions?status=...`. */
export const submissionsQuery = (status: SubmissionStatus = 'submitted') =>
  queryOptions({
    queryKey: [...SUBMISSIONS_KEY, { status }],
    queryFn: async (context): Promise<SubmissionBody[]> => {
      const url = `/api/admin/submissions?status=${encodeURIComponent(status)}`;
      return getJson<SubmissionBody[]>()({ ...context, queryKey: [url] });
    },
  });

/** The signed-in user's wallet activity (ledger entries), newest first. */
export const transactionsQuery = () =>
  queryOptions({
    queryKey: ['/api/transactions'],
    queryFn: getJson<TransactionBody[]>(),
  });

/** The signed-in user's withdrawal requests, newest first, destinations masked. */
export const withdrawalsQuery = () =>
  queryOptions({
    queryKey: ['/api/withdrawals'],
    queryFn: getJson<WithdrawalBody[]>(),
  });

/** Where the user's last withdrawal went (masked), offered again by the withdraw dialog. */
/** What a withdrawal of `amount` (a wire amount, "150.00") would have withheld as tax if sent now. */
export const withdrawalQuoteQuery = (amount: string) =>
  queryOptions({
    queryKey: [`/api/withdrawals/quote?amount=${encodeURIComponent(amount)}`],
    queryFn: getJson<WithdrawalQuoteBody>(),
    // Each opening of the confirmation asks again: the year's totals may have moved.
    staleTime: 0,
  });

export const savedDestinationQuery = () =>
  queryOptions({
    queryKey: ['/api/withdrawals/destination'],
    queryFn: getJson<SavedDestinationBody>(),
  });

/** Support e-mail and homepage; public, so the static pages read it signed out too. */
export const settingsQuery = () =>
  queryOptions({
    queryKey: ['/api/settings'],
    queryFn: getJson<SettingsBody>(),
  });

/** The key prefix of every status of the finance queue: invalidating it refreshes them all. */
export const FINANCE_WITHDRAWALS_KEY = ['/api/admin/withdrawals'] as const;

/** The finance queue (finance or admin role): `GET /api/admin/withdrawals?status=...`, oldest first. */
export const financeWithdrawalsQuery = (status: WithdrawalStatus | 'all' = 'pending') =>
  queryOptions({
    queryKey: [...FINANCE_WITHDRAWALS_KEY, { status }],
    queryFn: async (context): Promise<FinanceWithdrawalBody[]> => {
      // Every page: the queue is never cut off at the API's page size.
      return getAllPages<FinanceWithdrawalBody>(`/api/admin/withdrawals?status=${encodeURIComponent(status)}`, context.signal);
    },
  });

/** Each task's review signals over the last 30 days (median review time, approval share). */
export const taskSignalsQuery = () =>
  queryOptions({
    queryKey: ['/api/task-signals'],
    queryFn: getJson<TaskSignalBody[]>(),
    // Figures over 30 days move slowly: one fetch serves every card for minutes.
    staleTime: 5 * 60_000,
  });

export const APPEALS_KEY = ['/api/admin/appeals'] as const;

/** The reviewers' appeal queue (reviewer role): `GET /api/admin/appeals?status=...`, oldest first. */
export const appealsQuery = (status: AppealStatus = 'open') =>
  queryOptions({
    queryKey: [...APPEALS_KEY, { status }],
    queryFn: async (context): Promise<AppealBody[]> =>
      getJson<AppealBody[]>()({ ...context, queryKey: [`/api/admin/appeals?status=${encodeURIComponent(status)}`] }),
  });
