/**
 * Imports a package that may be missing from node_modules, answering
 * undefined instead of failing, so tests for an uninstalled provider can skip.
 */
export async function importOptionalPackage(name: string): Promise<Record<string, unknown> | undefined> {
  try {
    const loaded: unknown = await import(/* @vite-ignore */ name);
    return typeof loaded === 'object' && loaded !== null ? (loaded as Record<string, unknown>) : undefined;
  } catch (error) {
    if (isMissingPackageError(error, name)) return undefined;
    throw error;
  }
}

// Only the package itself being absent counts; a missing dependency of an installed package is a real failure.
function isMissingPackageError(error: unknown, name: string): boolean {
  return error instanceof Error && 'code' in error && error.code === 'ERR_MODULE_NOT_FOUND' && error.message.startsWith(`Cannot find package '${name}'`);
}
