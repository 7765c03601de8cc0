import { queryOptions } from '@tanstack/react-query';
import type { StaffQueuesBody } from '@kamai/contracts';
import { getJson } from '../../lib/http.ts';

/** How much waits in each queue of the signed-in staff member's roles (GET /api/admin/queues). */
export const staffQueuesQuery = () =>
  queryOptions({
    queryKey: ['/api/admin/queues'],
    queryFn: getJson<StaffQueuesBody>(),
    // Counts move while staff work elsewhere: read afresh whenever Home shows them.
    staleTime: 0,
  });
