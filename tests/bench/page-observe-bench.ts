/**
 * `npm run bench -- page`: the page agent's observation time (p50, p95) and snapshot size (estimated tokens) on
 * every test page and on a generated page of 5,000 elements, and the act-and-settle time of a click (the action,
 * then DOM quiet), and the evidence read the runtime makes before and after every side effect (`page/evidence`, answered
 * by the main-world recorder). Drives the freshly built content script through the page wire, as the runtime does.
 */
import { join } from 'node:path';
import { expectationFor, launchPageAgent, refOf } from '../e2e/page-agent-harness';
import { startPageServers } from '../support/static-page-server';
import { benchExtensionBuild } from './extension-build';

const PAGES = [
  'form',
  'controlled-input',
  'choices',
  'dialog',
  'tabs',
  'overlay',
  'shadow',
  'frames',
  'toast',
  'canvas',
  'slow',
  'failing-navigation',
  'swap',
  'webmcp',
  'injection-aria',
  'injection-offscreen',
  'injection-banner',
  'churn',
  'coordinates',
  'index',
];
const OBSERVATIONS = 15;
const CLICKS = 30;

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))];
}

const round = (value: number) => Math.round(value * 10) / 10;

export async function run(): Promise<Record<string, number>> {
  const build = await benchExtensionBuild();
  const servers = await startPageServers();
  const agent = await launchPageAgent(join(build, 'content-scripts'));
  const figures: Record<string, number> = {};
  try {
    const tokens: number[] = [];
    const medians: number[] = [];
    const tails: number[] = [];
    const measure = async (name: string) => {
      const { page, tabId } = await agent.open(`${servers.origin}/${name}.html`);
      const times: number[] = [];
      let size = 0;
      for (let index = 0; index < OBSERVATIONS; index++) {
        const started = performance.now();
        size = (await agent.observe(tabId)).snapshotTokens;
        times.push(performance.now() - started);
      }
      await page.close();
      return { p50: percentile(times, 0.5), p95: percentile(times, 0.95), size };
    };
    for (const name of PAGES) {
      const { p50, p95, size } = await measure(name);
      tokens.push(size);
      medians.push(p50);
      tails.push(p95);
      console.log(`  ${name}: observe p50 ${round(p50)} ms, p95 ${round(p95)} ms, ${size} tokens`);
    }
    const many = await measure('many-elements');
    console.log(
      `  many-elements (5,000): observe p50 ${round(many.p50)} ms, p95 ${round(many.p95)} ms, ${many.size} tokens`,
    );
    figures.testPagesObserveP50Ms = round(percentile(medians, 0.5));
    figures.testPagesObserveWorstP95Ms = round(Math.max(...tails));
    figures.testPagesMedianTokens = percentile(tokens, 0.5);
    figures.testPagesMaxTokens = Math.max(...tokens);
    figures.manyElementsObserveP50Ms = round(many.p50);
    figures.manyElementsObserveP95Ms = round(many.p95);
    figures.manyElementsTokens = many.size;

    const { page, tabId } = await agent.open(`${servers.origin}/form.html`);
    const observation = await agent.observe(tabId);
    const ref = refOf(observation, 'button', 'Submit');
    const clicks: number[] = [];
    const evidenceReads: number[] = [];
    for (let index = 0; index < CLICKS; index++) {
      const reading = performance.now();
      const evidence = await agent.send(tabId, { type: 'page/evidence' });
      evidenceReads.push(performance.now() - reading);
      if (evidence.type !== 'page/evidence') throw new Error(`evidence read failed: ${JSON.stringify(evidence)}`);
      const started = performance.now();
      const reply = await agent.send(tabId, {
        type: 'page/act',
        action: 'click',
        target: { kind: 'ref', ref },
        expected: expectationFor(observation, ref),
      });
      clicks.push(performance.now() - started);
      if (reply.type !== 'page/act-result' || !reply.ok) throw new Error(`click failed: ${JSON.stringify(reply)}`);
    }
    await page.close();
    figures.clickSettleP50Ms = round(percentile(clicks, 0.5));
    figures.clickSettleP95Ms = round(percentile(clicks, 0.95));
    figures.evidenceReadP50Ms = round(percentile(evidenceReads, 0.5));
    figures.evidenceReadP95Ms = round(percentile(evidenceReads, 0.95));
  } finally {
    await agent.close();
    await servers.close();
  }
  return figures;
}
