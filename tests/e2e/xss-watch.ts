export interface XssWatch {
  /** Tags of payloads that ran: `__xss(tag)`, `alert`, `confirm`, `prompt`. */
  executed: string[];
  /** Content Security Policy violations reported in the page (report-only or enforced). */
  cspViolations: string[];
  /** Distinct reasons a rendered DOM was unsafe. */
  violations: string[];
  /** How many times the rendered DOM was scanned. */
  scans: number;
}

declare global {
  interface Window {
    __xss?: (tag?: unknown) => void;
    __xssWatch?: XssWatch;
    __xssScan?: (root: Element) => void;
  }
}

/**
 * Installs the canaries and the DOM scan in a page. Self-contained (it is handed to `page.evaluate`):
 * the canary records any payload that runs, the scan rejects any element, attribute or URL through
 * which rendered markdown could run script or load something.
 */
export function installXssWatch(observedSelector: string | null): void {
  const watch: XssWatch = { executed: [], cspViolations: [], violations: [], scans: 0 };
  window.__xssWatch = watch;
  const record = (kind: string) => (tag?: unknown) => {
    watch.executed.push(`${kind}(${String(tag)})`);
  };
  window.__xss = record('__xss');
  window.alert = record('alert');
  window.confirm = record('confirm') as unknown as typeof window.confirm;
  window.prompt = record('prompt') as unknown as typeof window.prompt;
  document.addEventListener('securitypolicyviolation', (event) =>
    watch.cspViolations.push(`${event.violatedDirective} ${event.blockedURI} ${event.sample}`),
  );

  const forbiddenElements = new Set([
    'script',
    'iframe',
    'frame',
    'frameset',
    'object',
    'embed',
    'applet',
    'form',
    'meta',
    'base',
    'link',
    'style',
    'img',
    'image',
    'video',
    'audio',
    'source',
    'track',
    'picture',
    'math',
    'template',
    'noscript',
    'textarea',
    'select',
    'portal',
    'foreignobject',
    'use',
    'animate',
    'set',
    'animatetransform',
    'animatemotion',
    'handler',
    'listener',
  ]);
  const urlAttributes = new Set([
    'src',
    'srcset',
    'srcdoc',
    'action',
    'formaction',
    'data',
    'poster',
    'background',
    'codebase',
    'xlink:href',
    'ping',
    'manifest',
    'lowsrc',
    'dynsrc',
    'longdesc',
    'cite',
    'content',
  ]);
  const allowedHref = /^(https?:|mailto:|#)/i;
  const fail = (reason: string) => {
    if (!watch.violations.includes(reason)) watch.violations.push(reason);
  };
  const scan = (root: Element) => {
    watch.scans += 1;
    for (const element of root.querySelectorAll('*')) {
      const tag = element.tagName.toLowerCase();
      if (forbiddenElements.has(tag)) fail(`<${tag}> rendered`);
      if (tag === 'input' && !(element.getAttribute('type') === 'checkbox' && element.hasAttribute('disabled')))
        fail('an enabled or non-checkbox <input> rendered');
      for (const name of element.getAttributeNames()) {
        const value = element.getAttribute(name) ?? '';
        const lower = name.toLowerCase();
        if (lower.startsWith('on')) fail(`${lower} attribute on <${tag}>`);
        if (urlAttributes.has(lower)) fail(`${lower}="${value}" on <${tag}>`);
        if (lower === 'href' && !allowedHref.test(value)) fail(`href="${value}" on <${tag}>`);
        if (lower === 'style' && /url\(|expression\(|@import|javascript:/i.test(value))
          fail(`style="${value}" on <${tag}>`);
        if (lower === 'http-equiv' || (lower === 'target' && value !== '_blank'))
          fail(`${lower}="${value}" on <${tag}>`);
      }
    }
  };
  window.__xssScan = scan;
  if (observedSelector === null) return;
  const check = () => {
    const root = document.querySelector(observedSelector);
    if (root) scan(root);
  };
  new MutationObserver(check).observe(document.body, {
    subtree: true,
    childList: true,
    attributes: true,
    characterData: true,
  });
}
