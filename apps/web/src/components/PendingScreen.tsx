import { useRouterState } from '@tanstack/react-router';
import { mayHaveSession } from '../lib/sessionHint.ts';
import { SignedInLayout, useInSignedInLayout } from './layouts.tsx';
import { ScreenSkeleton, skeletonKindOf } from './skeletons.tsx';
import { Spinner } from './Spinner.tsx';

/** Pages of the signed-out frame: while they load there is no signed-in shell to draw. */
const GUEST_PATHS = ['/login', '/register', '/forgot-password', '/privacy-policy', '/delete-account'];

/**
 * What a route shows while it loads (the router's pending component). Inside the signed-in frame:
 * the screen's skeleton. Before any frame has rendered (a deep link, the signed-in user still being
 * read): the frame with its bottom bar and the skeleton, when this browser has a session; else the
 * spinner of the signed-out pages.
 */
export function PendingScreen() {
  const inLayout = useInSignedInLayout();
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const skeleton = <ScreenSkeleton kind={skeletonKindOf(pathname)} />;
  if (inLayout) return skeleton;
  if (!mayHaveSession() || GUEST_PATHS.includes(pathname)) return <Spinner />;
  return <SignedInLayout>{skeleton}</SignedInLayout>;
}
