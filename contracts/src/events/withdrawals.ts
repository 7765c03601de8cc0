/**
 * Withdrawal events of a `user-<id>` stream (request, payment, refusal) and the app settings
 * stream's events. Filled in by the wallet feature.
 */
export const withdrawalEvents = {};
export const settingsEvents = {};
