import type { Me } from '../api/types';

/**
 * What the signed-in user may do, per the service's roles: OPERATOR (or ADMIN) may freeze, unfreeze and run
 * operator trials, an OPERATOR limited to queues only on those queues; only ADMIN edits push-tier rollout rules.
 * The service enforces the same rules; the UI only hides controls that would be refused.
 */
export function canOperate(me: Me | null, queue: string | null | undefined): boolean {
  if (!me) return false;
  if (me.roles.includes('ADMIN')) return true;
  if (!me.roles.includes('OPERATOR')) return false;
  const queues = me.queues ?? [];
  return queues.length === 0 || (queue !== null && queue !== undefined && queues.includes(queue));
}

export function canAdminister(me: Me | null): boolean {
  return !!me && me.roles.includes('ADMIN');
}
