/** Escape probes of the job sandbox that aim at the extension's own origin (`input.extension`), one per line of a probe table. */
export const EXTENSION_ORIGIN_PROBES = `  extensionFetch: () => fetch(input.extension + '/manifest.json').then(() => true),
  extensionNoCorsFetch: () => fetch(input.extension + '/manifest.json', { mode: 'no-cors' }).then(() => true),
  extensionXhr: () => new Promise((resolve) => { const request = new XMLHttpRequest(); request.onload = () => resolve(true); request.onerror = () => resolve(false); request.open('GET', input.extension + '/manifest.json'); request.send(); }),
  extensionImportScripts: () => { importScripts(input.extension + '/job-sandbox.js'); return true; },
  extensionDynamicImport: () => import(input.extension + '/job-sandbox.js').then(() => true, (error) => String(error).includes('window')),
  extensionWorker: () => new Promise((resolve) => { const worker = new Worker(input.extension + '/job-sandbox.js'); worker.onerror = () => resolve(false); setTimeout(() => resolve(true), 500); }),
  extensionNestedWorkerFetch: () => new Promise((resolve) => { const worker = new Worker(URL.createObjectURL(new Blob(["fetch('" + input.extension + "/manifest.json').then(() => postMessage(true), () => postMessage(false))"]))); worker.onmessage = (event) => resolve(event.data); worker.onerror = () => resolve(false); }),
  extensionWebSocket: () => new Promise((resolve) => { const socket = new WebSocket(input.extension.replace(/^[a-z-]+:/, 'ws:') + '/ws'); socket.onopen = () => resolve(true); socket.onerror = () => resolve(false); }),
  evalImport: () => eval("import(input.extension + '/job-sandbox.js')").then(() => true),
  functionFetch: () => new Function('return fetch')()(input.extension + '/manifest.json').then(() => true),
`;
