import browser from 'webextension-polyfill';

interface ChromeOffscreen {
  offscreen: { createDocument(options: { url: string; reasons: string[]; justification: string }): Promise<void> };
  runtime: { getContexts(filter: { contextTypes: string[]; documentUrls: string[] }): Promise<unknown[]> };
}

const hostUrl = () => browser.runtime.getURL('/job-host.html');
const chromeApi = () => (globalThis as unknown as { chrome: ChromeOffscreen }).chrome;
let creating: Promise<void> | undefined;

/** Whether the job host document exists now (Chrome: the offscreen document; Firefox: a frame of this background page). */
export async function jobHostExists(): Promise<boolean> {
  if (import.meta.env.BROWSER === 'firefox') return !!document.querySelector('iframe[data-job-host]');
  return (
    (await chromeApi().runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT'], documentUrls: [hostUrl()] }))
      .length > 0
  );
}

/** Creates the job host when there is none; it lives on without the panel or the stage tab. */
export async function openJobHost(): Promise<void> {
  if (await jobHostExists()) return;
  if (import.meta.env.BROWSER === 'firefox') {
    const frame = document.createElement('iframe');
    frame.dataset.jobHost = 'true';
    frame.src = hostUrl();
    document.body.append(frame);
    return;
  }
  creating ??= chromeApi()
    .offscreen.createDocument({
      url: hostUrl(),
      reasons: ['WORKERS'],
      justification: 'Runs the scripts the model writes in sandboxed workers, off the panel.',
    })
    .finally(() => (creating = undefined));
  await creating;
}
