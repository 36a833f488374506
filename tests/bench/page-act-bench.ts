/**
 * `npm run bench -- "page act"`: the page agent's act round trip (request sent to reply received: staleness check,
 * scroll into view, hit test, dispatch, settle) per action on the test pages, p50 and p95. Each round observes first
 * (not timed), as the runtime does after every action. An action this build does not support is reported, not timed.
 */
import { join } from 'node:path';
import type { PageObservationData, PageRequest } from '@/lib/protocol/page-wire';
import { expectationFor, launchPageAgent, refOf, type PageAgentSession } from '../e2e/page-agent-harness';
import { startPageServers } from '../support/static-page-server';
import { benchExtensionBuild } from './extension-build';

const ROUNDS = 20;

type ActFields = Omit<Extract<PageRequest, { type: 'page/act' }>, 'type' | 'expected' | 'target'>;

interface ActCase {
  name: string;
  page: string;
  /** The round's action on a fresh observation; `to` is the drop target's ref, for drag. */
  act(observation: PageObservationData, round: number): { ref?: string; to?: string; fields: ActFields };
}

const CASES: ActCase[] = [
  { name: 'click', page: 'form', act: (o) => ({ ref: refOf(o, 'button', 'Submit'), fields: { action: 'click' } }) },
  {
    name: 'type',
    page: 'form',
    act: (o, round) => ({ ref: refOf(o, 'textbox', 'Full name'), fields: { action: 'type', text: `Ada ${round}` } }),
  },
  {
    name: 'press Control+A',
    page: 'keys',
    act: (o) => ({ ref: refOf(o, 'textbox', 'Note'), fields: { action: 'press', key: 'Control+A' } }),
  },
  {
    name: 'hover',
    page: 'hover-menu',
    act: (o) => ({ ref: refOf(o, 'link', 'Products'), fields: { action: 'hover' } }),
  },
  {
    name: 'select (native)',
    page: 'choices',
    act: (o, round) => ({
      ref: refOf(o, 'combobox', 'Color'),
      fields: { action: 'select', option: round % 2 ? 'Red' : 'Green' },
    }),
  },
  {
    name: 'click below the fold',
    page: 'scroll',
    act: (o) => ({ ref: refOf(o, 'button', 'Accept terms'), fields: { action: 'click' } }),
  },
  {
    name: 'drag (native DnD)',
    page: 'drag',
    act: (o, round) => ({
      ref: refOf(o, 'generic', 'Write report'),
      to: refOf(o, 'region', round % 2 ? 'To do' : 'Done'),
      fields: { action: 'drag' },
    }),
  },
  {
    name: 'select (combobox)',
    page: 'combobox',
    act: (o, round) => ({
      ref: refOf(o, 'combobox', 'City'),
      fields: { action: 'select', option: round % 2 ? 'Paris' : 'Prague' },
    }),
  },
];

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))];
}

const round = (value: number) => Math.round(value * 10) / 10;

async function measure(agent: PageAgentSession, origin: string, actCase: ActCase): Promise<number[] | string> {
  const { page, tabId } = await agent.open(`${origin}/${actCase.page}.html`);
  const times: number[] = [];
  try {
    for (let index = 0; index < ROUNDS; index++) {
      const observation = await agent.observe(tabId);
      let planned;
      try {
        planned = actCase.act(observation, index);
      } catch (error) {
        return (error as Error).message.split('\n')[0];
      }
      const { ref, to, fields } = planned;
      const request = {
        type: 'page/act',
        ...fields,
        ...(ref ? { target: { kind: 'ref', ref } } : {}),
        ...(to ? { to: { ref: to, role: observation.refs[to].role, name: observation.refs[to].name } } : {}),
        expected: expectationFor(observation, ref),
      } as Extract<PageRequest, { type: 'page/act' }>;
      const started = performance.now();
      const reply = await agent.send(tabId, request).catch((error: Error) => error);
      const elapsed = performance.now() - started;
      if (reply instanceof Error) return reply.message.slice(0, 160);
      if (reply.type !== 'page/act-result' || !reply.ok) return JSON.stringify(reply).slice(0, 160);
      times.push(elapsed);
    }
  } finally {
    await page.close();
  }
  return times;
}

export async function run(): Promise<Record<string, number>> {
  const build = await benchExtensionBuild();
  const servers = await startPageServers();
  const agent = await launchPageAgent(join(build, 'content-scripts'));
  const figures: Record<string, number> = {};
  try {
    for (const actCase of CASES) {
      const times = await measure(agent, servers.origin, actCase);
      if (typeof times === 'string') {
        console.log(`  ${actCase.name} (${actCase.page}): not supported here: ${times}`);
        continue;
      }
      const key = actCase.name.replace(/\W+(\w)?/g, (_, letter: string | undefined) => letter?.toUpperCase() ?? '');
      figures[`${key}P50Ms`] = round(percentile(times, 0.5));
      figures[`${key}P95Ms`] = round(percentile(times, 0.95));
      console.log(
        `  ${actCase.name} (${actCase.page}): act p50 ${figures[`${key}P50Ms`]} ms, p95 ${figures[`${key}P95Ms`]} ms`,
      );
    }
  } finally {
    await agent.close();
    await servers.close();
  }
  return figures;
}
