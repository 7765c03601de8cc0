/** workflows: every operation across streams, and whether it finished (the recovery sweep's list). */
export interface WorkflowsTable {
  id: string;
  kind: string;
  /** `running` until its end is recorded, then `completed`. */
  status: string;
  steps: number;
  /** Steps with a recorded outcome. */
  recorded: number;
  started_at: string;
  /** Global position of the intent. */
  position: number;
}
