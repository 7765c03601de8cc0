/**
 * The user's withdrawal requests on their own stream. Filled in by the wallet feature (state,
 * evolve, commands and decide).
 */
export interface WithdrawalsState {
  /** Keyed by withdrawal id. */
  byId: Readonly<Record<string, never>>;
}

export const initialWithdrawalsState = (): WithdrawalsState => ({ byId: {} });
