import browser from 'webextension-polyfill';

const BRIDGE_SCRIPT_ID = 'splitbrain-page-tools-bridge';

/*
 * The page-tools bridge runs in the main world from document_start, before the page's own scripts, so that it sees
 * every click listener they add. The patterns are the optional host permissions: the browser injects a registered
 * script only where the extension has host access, so a site the user never granted gets nothing. Registered
 * scripts outlive the worker; each start checks and registers again only when missing (after an update, or where
 * the browser keeps none across sessions).
 */
export async function registerPageToolsBridge(): Promise<void> {
  if (!browser.scripting?.registerContentScripts) return;
  try {
    const registered = await browser.scripting.getRegisteredContentScripts({ ids: [BRIDGE_SCRIPT_ID] });
    if (registered.length > 0) return;
    await browser.scripting.registerContentScripts([
      {
        id: BRIDGE_SCRIPT_ID,
        matches: ['http://*/*', 'https://*/*'],
        js: ['content-scripts/page-tools-bridge.js'],
        runAt: 'document_start',
        world: 'MAIN',
        allFrames: true,
      },
    ]);
  } catch (error) {
    // Two worker starts racing register the same id once; a browser without MAIN-world registration injects the
    // bridge on demand only, and sees the listeners added after that.
    console.warn('The page-tools bridge is injected on demand only:', error);
  }
}
