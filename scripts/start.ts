/**
 * `npm start`: builds the extension, starts the offline demo model on 127.0.0.1, and opens Chromium
 * with the unpacked build loaded. With no endpoint configured yet, the extension is pointed at the
 * demo model (labelled as such in the panel) so a newcomer sees the whole loop at once, with no key.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import puppeteer from 'puppeteer-core';
import { configureDemoEndpoint } from './demo-model/configure-demo-endpoint';
import { startDemoModelServer } from './demo-model/start-demo-model-server';
import { errorText } from '../lib/protocol/error-text';

const root = resolve(import.meta.dirname, '..');
const extensionPath = resolve(root, '.output/chrome-mv3');
const profile = resolve(root, '.splitbrain-profile');
const headless = process.argv.includes('--headless') || (!process.env.DISPLAY && !process.env.WAYLAND_DISPLAY);

function findChromium(): string {
  const candidates = [
    process.env.CHROMIUM_PATH,
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
  ];
  const found = candidates.find((candidate) => candidate && existsSync(candidate));
  if (!found) throw new Error('No Chromium found. Install it (Debian: apt-get install chromium) or set CHROMIUM_PATH.');
  return found;
}

async function main(): Promise<void> {
  console.log('Building the extension…');
  execFileSync('npx', ['wxt', 'build'], { cwd: root, stdio: 'inherit' });
  const server = await startDemoModelServer({ port: Number(process.env.SCRIPTED_MODEL_PORT ?? 4010) });
  console.log(`Offline demo model listening on ${server.url}`);
  mkdirSync(profile, { recursive: true });
  const browser = await puppeteer.launch({
    executablePath: findChromium(),
    headless,
    pipe: true,
    enableExtensions: [extensionPath],
    userDataDir: profile,
    defaultViewport: null,
    args: [
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...(headless ? ['--no-sandbox', '--disable-gpu'] : []),
    ],
  });
  const worker = await browser.waitForTarget(
    (target) => target.type() === 'service_worker' && target.url().endsWith('/background.js'),
  );
  const extensionId = new URL(worker.url()).host;
  const page = await browser.newPage();
  await page.goto(`chrome-extension://${extensionId}/options.html`);
  const configured = await configureDemoEndpoint(page, server.url);
  await page.goto(`chrome-extension://${extensionId}/sidepanel.html`);
  console.log(
    configured
      ? 'No endpoint was configured: the extension now uses the offline demo model.'
      : 'Using the endpoint already configured in this profile.',
  );
  console.log(
    `Splitbrain is loaded (extension id ${extensionId}). The chat is open in a tab; the toolbar button opens it as a side panel.`,
  );
  console.log(
    'Try: "make the particles faster", "open the synth and set the tempo to 140", "what can I change here?". Press Ctrl+C to quit.',
  );
  if (headless) console.log('(No display found: Chromium runs headless. Run on a desktop to see it.)');
  const stop = async () => {
    await browser.close().catch(() => undefined);
    await server.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  browser.on('disconnected', () => void stop());
}

main().catch((error: unknown) => {
  console.error(errorText(error));
  process.exit(1);
});
