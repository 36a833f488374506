/** Per-job and per-session limits of runScript; the tool description and the docs quote these. */
export const JOB_LIMITS = {
  defaultTimeoutSeconds: 30,
  maxTimeoutSeconds: 600,
  /** At most this many jobs of one session run at once; a further one is refused. */
  maxRunningPerSession: 4,
  /** Bytes of the beginning and of the end of the output kept in the durable summary (and sent to the model). */
  headBytes: 2 * 1024,
  tailBytes: 8 * 1024,
  /** At most this many bytes of new output go live to the panel per flush; what a flush skips is never shown live. */
  liveChunkBytes: 16 * 1024,
  liveFlushMs: 100,
  /** A worker posts each console call at once, up to this many posts per window (lib/jobs/worker-source.ts); */
  workerPostsPerWindow: 500,
  workerPostWindowMs: 100,
  /** past that, a call posts what has gathered once the last post is this old, or this long (UTF-16 units). */
  workerFloodPostMs: 2,
  workerFloodPostChars: 16 * 1024,
  /** A stopped job's outcome waits for the output its worker posted before, until none came for this long... */
  drainQuietMs: 20,
  /** ...or this long at most. */
  drainMaxMs: 500,
  /** The panel keeps this much of a running job's live output. */
  panelTailBytes: 64 * 1024,
  /** The result (JSON) kept and sent to the model. */
  resultBytes: 16 * 1024,
  /** The code kept in job/created, for the card. */
  codeChars: 20_000,
} as const;
