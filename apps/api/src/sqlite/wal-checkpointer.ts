// The checkpointer lives with the read models (projections/src/wal-checkpointer.ts): a rebuild runs
// one for its own connection, and projections may not import the API. Re-exported for the API's use.
export { WAL_AUTOCHECKPOINT_PAGES, type WalCheckpointer, startWalCheckpointer } from '@kamai/projections';
