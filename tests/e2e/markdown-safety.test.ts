import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import {
  configureEndpoint,
  launchExtension,
  sendMessage,
  waitForTurnEnd,
  type ExtensionSession,
} from './extension-harness';

/** Every payload would set `window.__pwned` if it were ever rendered as HTML or followed as a URL. */
function hostileMarkdown(imageOrigin: string): string {
  return [
    '# Safety check',
    '',
    `<script>window.__pwned = 'script'</script>`,
    `<img src="x" onerror="window.__pwned = 'img'">`,
    `<iframe src="javascript:window.__pwned='iframe'"></iframe>`,
    '',
    `Click [this link](javascript:window.__pwned='link') or [that one](JaVaScRiPt:window.__pwned='link2') or <a href="javascript:window.__pwned='a'">a raw anchor</a>.`,
    '',
    'A [safe link](https://example.org/docs) and <mailto:someone@example.org>.',
    '',
    `![tracker pixel](${imageOrigin}/pixel.png?leak=secret)`,
    '',
    '| Param | Value |',
    '|-------|------:|',
    `| speed | 12 |`,
    `| mode | <b onmouseover="window.__pwned='cell'">vortex</b> |`,
    '',
    '```js',
    `const x = "<img src=x onerror=window.__pwned='code'>";`,
    'console.log(x);',
  ].join('\n');
}

interface Watch {
  checks: number;
  violations: string[];
  cspViolations: string[];
}

declare global {
  interface Window {
    __pwned?: unknown;
    __watch?: Watch;
  }
}

/** Installed in the panel: checks the whole message list after every DOM change, i.e. at every render of the stream. */
function installWatch(): void {
  const watch: Watch = { checks: 0, violations: [], cspViolations: [] };
  window.__watch = watch;
  document.addEventListener('securitypolicyviolation', (event) =>
    watch.cspViolations.push(`${event.violatedDirective}: ${event.sample}`),
  );
  const check = () => {
    watch.checks += 1;
    const list = document.querySelector('.message-list');
    if (!list) return;
    const fail = (reason: string) => {
      if (!watch.violations.includes(reason)) watch.violations.push(reason);
    };
    if (window.__pwned !== undefined) fail(`__pwned = ${String(window.__pwned)}`);
    for (const element of list.querySelectorAll('script, iframe, object, embed, img, b, form, style, link, meta, base'))
      fail(`<${element.tagName.toLowerCase()}> in the message list`);
    for (const element of list.querySelectorAll('*')) {
      for (const attribute of element.getAttributeNames())
        if (attribute.startsWith('on')) fail(`${attribute} attribute on <${element.tagName.toLowerCase()}>`);
    }
    for (const anchor of list.querySelectorAll('a')) {
      const href = anchor.getAttribute('href') ?? '';
      if (!/^(https?:|mailto:|#)/i.test(href)) fail(`link to ${href}`);
    }
    for (const paragraph of list.querySelectorAll('.assistant-message p')) {
      const text = paragraph.textContent ?? '';
      if (text.includes('](')) fail(`half-typed link syntax shown: ${text}`);
      if (text.includes('|---') || text.startsWith('| Param')) fail(`table row shown as text: ${text}`);
      if (text.includes('```')) fail(`fence marker shown as text: ${text}`);
    }
  };
  new MutationObserver(check).observe(document.body, {
    subtree: true,
    childList: true,
    attributes: true,
    characterData: true,
  });
}

describe('markdown from the model is safe at every moment of the stream', () => {
  let server: ScriptedModelServer;
  let session: ExtensionSession;

  beforeAll(async () => {
    server = await startScriptedModelServer();
    session = await launchExtension(process.env.SPLITBRAIN_TEST_BUILD);
    await configureEndpoint(session, server.url);
  });

  afterAll(async () => {
    await session?.close();
    await server?.close();
  });

  it('renders an unclosed fence, a table and javascript: links without running anything', async () => {
    const imageOrigin = new URL(server.url).origin;
    server.setScript({ turns: [{ steps: [{ text: hostileMarkdown(imageOrigin), delayMs: 8 }] }] });
    const panel = await session.openPanel();
    await panel.evaluate(installWatch);
    await sendMessage(panel, 'Show me some markdown.');
    await panel.waitForSelector('.assistant-message[data-item-status="streaming"]', { timeout: 20_000 });
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');

    const watch = (await panel.evaluate(() => window.__watch))!;
    console.log(`[markdown-safety] ${watch.checks} renders checked during the stream`);
    expect(watch.checks).toBeGreaterThan(50);
    expect(watch.violations).toEqual([]);
    expect(watch.cspViolations).toEqual([]);
    expect(await panel.evaluate(() => window.__pwned)).toBeUndefined();

    const view = await panel.$eval('.assistant-message', (message) => ({
      text: message.textContent ?? '',
      blocked: [...message.querySelectorAll('.blocked-link')].map((element) => element.textContent),
      links: [...message.querySelectorAll('a')].map((anchor) => ({
        text: anchor.textContent,
        href: anchor.getAttribute('href'),
        target: anchor.getAttribute('target'),
        rel: anchor.getAttribute('rel'),
      })),
      headers: [...message.querySelectorAll('table th')].map((cell) => cell.textContent),
      cells: [...message.querySelectorAll('table td')].map((cell) => cell.textContent),
      code: message.querySelector('.code-block code')?.textContent ?? '',
      codeLanguage: message.querySelector('.code-block')?.getAttribute('data-language'),
      imageButton: message.querySelector('button.image-placeholder')?.getAttribute('aria-label'),
    }));
    expect(view.text).toContain(`<script>window.__pwned = 'script'</script>`);
    expect(view.text).toContain(`<a href="javascript:window.__pwned='a'">`);
    expect(view.blocked).toEqual(['this link', 'that one']);
    expect(view.links).toEqual([
      { text: 'safe link', href: 'https://example.org/docs', target: '_blank', rel: 'noopener noreferrer nofollow' },
      {
        text: 'mailto:someone@example.org',
        href: 'mailto:someone@example.org',
        target: '_blank',
        rel: 'noopener noreferrer nofollow',
      },
    ]);
    expect(view.headers).toEqual(['Param', 'Value']);
    expect(view.cells).toEqual(['speed', '12', 'mode', `<b onmouseover="window.__pwned='cell'">vortex</b>`]);
    expect(view.code).toBe(`const x = "<img src=x onerror=window.__pwned='code'>";\nconsole.log(x);\n`);
    expect(view.codeLanguage).toBe('js');
    // Highlighting is loaded when a message first has code to colour: the block gets its colours once it arrives.
    await panel.waitForSelector('.assistant-message .code-block code.hljs [class^="hljs-"]', { timeout: 10_000 });
    expect(await panel.$eval('.assistant-message .code-block code', (code) => code.textContent)).toBe(view.code);
    expect(view.imageButton).toBe(`Load image “tracker pixel” from ${new URL(imageOrigin).host}`);

    // The javascript: link is text: clicking it goes nowhere and runs nothing.
    const pagesBefore = (await session.browser.pages()).length;
    await panel.click('.blocked-link');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await panel.evaluate(() => window.__pwned)).toBeUndefined();
    expect((await session.browser.pages()).length).toBe(pagesBefore);
    expect(panel.url()).toContain('/sidepanel.html');

    // The image is fetched only when the user asks for it.
    const pixelRequests = () => server.requests.filter((request) => request.path.startsWith('/pixel.png')).length;
    expect(pixelRequests()).toBe(0);
    await panel.click('button.image-placeholder');
    await panel.waitForSelector('.assistant-message img.loaded-image');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(pixelRequests()).toBe(1);
    expect(await panel.$eval('img.loaded-image', (image) => image.getAttribute('referrerpolicy'))).toBe('no-referrer');
    await panel.close();
  });
});
