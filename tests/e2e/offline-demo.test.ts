import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureDemoEndpoint } from '../../scripts/demo-model/configure-demo-endpoint';
import { startDemoModelServer } from '../../scripts/demo-model/start-demo-model-server';
import type { ScriptedModelServer } from '../../scripts/scripted-model-server/scripted-model-server';
import { launchExtension, sendMessage, waitForTurnEnd, type ExtensionSession } from './extension-harness';
import { readInsideTarget } from './manual-tool';

/** `npm start`'s own set-up: the demo model server and the endpoint profile it writes, then typed requests. */
describe('the offline demo of npm start', () => {
  let server: ScriptedModelServer;
  let session: ExtensionSession;

  beforeAll(async () => {
    server = await startDemoModelServer();
    session = await launchExtension();
    const options = await session.browser.newPage();
    await options.goto(`chrome-extension://${session.extensionId}/options.html`);
    expect(await configureDemoEndpoint(options, server.url)).toBe(true);
    expect(await configureDemoEndpoint(options, server.url)).toBe(false);
    await options.close();
  });

  afterAll(async () => {
    await session?.close();
    await server?.close();
  });

  async function lastReply(panel: Awaited<ReturnType<ExtensionSession['openPanel']>>): Promise<string> {
    return panel.$$eval('.assistant-message', (items) => items.at(-1)?.textContent ?? '');
  }

  it('understands three typed requests on two targets; the values arrive inside the target frames', async () => {
    const panel = await session.openPanel();
    expect(await panel.$eval('.scripted-banner', (banner) => banner.textContent)).toContain('Offline demo');

    await sendMessage(panel, 'Make the particles faster and show their vectors');
    expect(await waitForTurnEnd(panel, 0, 60_000)).toBe('completed');
    const particles = await readInsideTarget(await session.targetFrame('particles'));
    expect(particles.state).toMatchObject({ speed: 12, show_vectors: true });
    const first = await lastReply(panel);
    expect(first).toContain('Opened Particle field.');
    expect(first).toContain('Speed 8 → 12 m/s');

    // Opening a target brought the stage tab to the front; the user types in the panel.
    await panel.bringToFront();
    await sendMessage(panel, 'open the synth and set the tempo to 140');
    expect(await waitForTurnEnd(panel, 1, 60_000)).toBe('completed');
    expect((await readInsideTarget(await session.targetFrame('synth'))).state).toMatchObject({ tempo: 140 });
    expect(await lastReply(panel)).toContain('Tempo 112 → 140 BPM');

    await panel.bringToFront();
    await sendMessage(panel, 'set the release to 2 seconds');
    expect(await waitForTurnEnd(panel, 2, 60_000)).toBe('completed');
    expect((await readInsideTarget(await session.targetFrame('synth'))).state).toMatchObject({
      tempo: 140,
      release: 2000,
    });
    expect(await lastReply(panel)).toContain('Release 280 → 2000 ms');

    const cards = await panel.$$eval('section.tool-card', (items) =>
      items.map((item) => item.getAttribute('aria-label')),
    );
    console.log(
      `[e2e] offline demo: ${cards.length} tool calls over 3 requests; last reply: ${await lastReply(panel)}`,
    );
    await panel.close();
  });

  it('changes no particle speed for a part only the synthesizer has, and says which part and who has it', async () => {
    const panel = await session.openPanel();
    // By the text it sent: a count of turns taken before the conversation loaded would point at an older turn.
    const lastTurnEnd = async (text: string) => {
      const handle = await panel.waitForFunction(
        (sent) => {
          const turn = [...document.querySelectorAll('article.turn')].at(-1);
          const status = turn?.getAttribute('data-status');
          return turn?.textContent?.includes(sent) && status !== 'running' ? status : false;
        },
        { timeout: 60_000, polling: 50 },
        text,
      );
      return handle.jsonValue();
    };

    await sendMessage(panel, 'open the particle field and set the speed to 20');
    expect(await lastTurnEnd('open the particle field and set the speed to 20')).toBe('completed');
    expect((await readInsideTarget(await session.targetFrame('particles'))).state).toMatchObject({ speed: 20 });

    await panel.bringToFront();
    await sendMessage(panel, 'use a triangle wave and slow the tempo to 90');
    expect(await lastTurnEnd('use a triangle wave and slow the tempo to 90')).toBe('completed');
    const reply = await lastReply(panel);
    expect(reply).toBe(
      'I did not understand "use a triangle wave" or "slow the tempo to 90": Particle field has no waveform or tempo, Step synthesizer has both (say "open the Step synthesizer and use a triangle wave and slow the tempo to 90").',
    );
    expect((await readInsideTarget(await session.targetFrame('particles'))).state).toMatchObject({ speed: 20 });
    const calls = await panel.$$eval('article.turn', (items) =>
      [...items.at(-1)!.querySelectorAll('section.tool-card')].map((card) => card.getAttribute('aria-label')),
    );
    expect(calls).toEqual(['Tool call listTargets', 'Tool call getParameters']);
    console.log(`[e2e] offline demo, a part of another target: ${reply}`);
    await panel.close();
  });
});
