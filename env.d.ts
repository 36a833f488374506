interface ImportMetaEnv {
  /** Set to "1" only by `npm run bench`, for a build whose event log lives in memory (see tests/bench/extension-build.ts). */
  readonly WXT_MEMORY_EVENT_LOG?: string;
}
