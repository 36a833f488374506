const MB = 1024 * 1024;

/**
 * What an import accepts, checked before anything is unpacked; an export larger than this is refused at export,
 * so that every file Splitbrain writes can be read back. `maxUnpackedBytes` bounds a zip bomb: the sizes the
 * archive declares are summed before inflating, and no entry is inflated past its declared size.
 */
export const SESSION_ARCHIVE_LIMITS = {
  maxFileBytes: 200 * MB,
  maxUnpackedBytes: 250 * MB,
  maxEntries: 5000,
} as const;
