import type { ToolOutput } from '../protocol/tool-output';
import { pageRefusal, siteLabel, siteOrigin } from './choose-page';
import { observePage } from './observe-page';
import type { PageFence } from './page-fence';
import { LOAD_TIMEOUT_MS } from './page-load-timeout';
import { fencedObservation } from './page-output';
import type { OpenPage } from './page-tool-inputs';
import type { PageCallContext, PageToolContext } from './page-tool-context';

/** Opens an http(s) address in the page's tab and observes what loaded. */
export async function navigatePage(
  context: PageToolContext,
  page: OpenPage,
  call: PageCallContext,
  url: string,
  fence: PageFence,
): Promise<ToolOutput> {
  const parsed = URL.parse(url);
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || pageRefusal(url))
    return {
      ok: false,
      code: 'INVALID_INPUT',
      error: `Only http(s) web pages can be opened, not "${url.slice(0, 200)}".`,
    };
  const urlBefore = page.tab.url ?? '';
  await context.dependencies.platform.navigate(page.tab.tabId, parsed.href, LOAD_TIMEOUT_MS);
  return afterNavigation(context, page, call, urlBefore, fence);
}

/** Goes back in the page's tab's history and observes what loaded. */
export async function pageBack(
  context: PageToolContext,
  page: OpenPage,
  call: PageCallContext,
  fence: PageFence,
): Promise<ToolOutput> {
  const urlBefore = page.tab.url ?? '';
  await context.dependencies.platform.back(page.tab.tabId, LOAD_TIMEOUT_MS);
  return afterNavigation(context, page, call, urlBefore, fence);
}

async function afterNavigation(
  context: PageToolContext,
  page: OpenPage,
  call: PageCallContext,
  urlBefore: string,
  fence: PageFence,
): Promise<ToolOutput> {
  const { platform } = context.dependencies;
  const tab = await platform.tab(page.tab.tabId);
  const urlAfter = tab?.url ?? '';
  const now =
    tab && pageRefusal(urlAfter) === undefined
      ? { ...page, tab, origin: siteOrigin(urlAfter), title: tab.title ?? '' }
      : undefined;
  const access = now ? await platform.hasAccess(now.origin) : false;
  const observed = now && access ? await observePage(context, now, call).catch(() => undefined) : undefined;
  if (!observed?.ok)
    return {
      ok: false,
      code: now && !access ? 'NO_SITE_ACCESS' : 'NAVIGATION_FAILED',
      error:
        now && !access
          ? `NO_SITE_ACCESS: the page is now on ${siteLabel(now.origin)}.`
          : `The page at ${urlAfter || 'that address'} did not load.`,
      ...(now && !access ? { origin: now.origin } : {}),
      urlBefore,
      urlAfter,
    };
  return {
    ok: true,
    urlBefore,
    urlAfter,
    observation: fencedObservation(observed.record, observed.data, undefined, fence),
  };
}
