// The rule lives in contracts: the server's form sign-in (POST /api/auth/login/form) applies it too.
export { safeRedirect } from '@kamai/contracts';
