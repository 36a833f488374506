import type { Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
} from '../../scripts/scripted-model-server/scripted-model-server';
import type { Script } from '../../scripts/scripted-model-server/script';
import { CANVAS_TARGET } from '../support/authored-target-fixture';
import { currentSessionId, readStoredLog, sendMessage, storedRowsText, waitForStoredRows } from './extension-harness';
import { extensionSuite } from './extension-suite';
import { artifactFrame, stateInside } from './artifact-frame';

type Turn = Script['turns'][number];
type ToolResult = Record<string, unknown>;

/** A turn whose steps are these tool calls, one per step, then a closing text. */
function turnOf(calls: { name: string; arguments: unknown }[], text: string): Turn {
  return { steps: [...calls.map((call) => ({ toolCalls: [call] })), { text }] } as Turn;
}

/** The tool results the model got in the newest request, in order. */
function toolResults(server: ScriptedModelServer): ToolResult[] {
  const body = server.requests.at(-1)!.body as { messages: { role: string; content?: unknown }[] };
  return body.messages
    .filter((message) => message.role === 'tool')
    .map((message) => JSON.parse(String(message.content)) as ToolResult);
}

async function waitForLastTurnEnd(panel: Page, text: string): Promise<string> {
  const handle = await panel.waitForFunction(
    (sent) => {
      const turn = [...document.querySelectorAll('article.turn')].at(-1);
      const status = turn?.getAttribute('data-status');
      return turn?.textContent?.includes(sent) && status !== 'running' ? status : false;
    },
    { timeout: 30_000, polling: 50 },
    text,
  );
  return String(await handle.jsonValue());
}

interface StoredEvent {
  seq: number;
  type: string;
  artifactId?: string;
  data: Record<string, unknown>;
}

/** Every stored event of the session, whole. */
async function storedEvents(page: Page, sessionId: string): Promise<StoredEvent[]> {
  return (JSON.parse(await storedRowsText(page, sessionId)) as { event: StoredEvent }[]).map((row) => row.event);
}

describe('rewind with authored-target versions', () => {
  const suite = extensionSuite({ model: () => startScriptedModelServer() });
  let panel: Page;

  beforeAll(async () => {
    panel = await suite.session.openPanel();
    await panel.setViewport({ width: 420, height: 760 });
  });

  /**
   * In a new conversation: the model writes the orbit sketch (version 1), opens it with radius 90, then patches
   * its label to v2 (version 2) and sets radius 50. Returns the target's id.
   */
  async function writeAndPatch(): Promise<string> {
    await panel.bringToFront();
    await panel.click('button::-p-text(New chat)');
    const turns: Turn[] = [turnOf([{ name: 'createTarget', arguments: CANVAS_TARGET }], 'Made it.')];
    suite.model.setScript({ turns });
    await sendMessage(panel, 'Make an orbit sketch.');
    expect(await waitForLastTurnEnd(panel, 'Make an orbit sketch.')).toBe('completed');
    const [created] = toolResults(suite.model);
    expect(created).toMatchObject({ ok: true, version: 1 });
    const targetId = String(created!.targetId);

    turns.push(
      turnOf(
        [
          { name: 'openTarget', arguments: { targetId } },
          { name: 'setParameters', arguments: { changes: [{ param: 'radius', value: 90 }] } },
        ],
        'Radius 90.',
      ),
      turnOf(
        [
          {
            name: 'updateTarget',
            arguments: {
              targetId,
              baseVersion: 1,
              edits: [{ part: 'script', find: "var label = 'v1';", replace: "var label = 'v2';" }],
            },
          },
          { name: 'openTarget', arguments: { targetId } },
          { name: 'setParameters', arguments: { changes: [{ param: 'radius', value: 50 }] } },
        ],
        'Version 2, radius 50.',
      ),
    );
    suite.model.setScript({ turns });
    await sendMessage(panel, 'Open it with radius 90.');
    expect(await waitForLastTurnEnd(panel, 'Open it with radius 90.')).toBe('completed');
    await artifactFrame(suite.session, 'v1 r=90px');
    await panel.bringToFront();
    await sendMessage(panel, 'Label it v2, radius 50.');
    expect(await waitForLastTurnEnd(panel, 'Label it v2, radius 50.')).toBe('completed');
    expect(toolResults(suite.model).at(-3)).toMatchObject({ ok: true, version: 2, supersedes: 1 });
    await artifactFrame(suite.session, 'v2 r=50px');
    await panel.bringToFront();
    return targetId;
  }

  /** Opens the rewind confirmation for the third message and picks the mode with authored-target versions. */
  async function confirmVersionsRewind(targetId: string): Promise<void> {
    const third = (await panel.$$('article.turn'))[2]!;
    await (await third.$('button[aria-label="Rewind to this message"]'))!.click();
    await panel.waitForSelector('dialog.rewind-dialog fieldset.rewind-modes');
    await panel.click('dialog.rewind-dialog input[value="versions"]');
    const versions = await panel.$eval(
      'dialog.rewind-dialog section[aria-label="Authored-target versions restored"]',
      (section) => (section.textContent ?? '').trim(),
    );
    expect(versions).toContain(`${targetId}: version 1 becomes current again (as a new version after 2)`);
    const values = await panel.$eval('dialog.rewind-dialog section[aria-label="Target values restored"]', (section) =>
      (section.textContent ?? '').trim(),
    );
    expect(values).toContain(`${targetId}: radius = 90`);
    await panel.click('dialog.rewind-dialog button.button-primary');
  }

  /** What the log says of the rewind: one rewind, version 1 restored once as version 3, its effects done once. */
  async function expectLoggedOnce(sessionId: string, targetId: string): Promise<void> {
    const events = await storedEvents(panel, sessionId);
    const rewinds = events.filter((event) => event.type === 'rewind/applied');
    expect(rewinds).toHaveLength(1);
    expect(rewinds[0]!.data).toMatchObject({
      mode: 'versions',
      versions: [{ artifactId: targetId, version: 1, restoredAs: 3 }],
      values: [{ targetId, values: { radius: 90 } }],
    });
    const created = events.filter((event) => event.type === 'artifact/created' && event.artifactId === targetId);
    expect(created.map((event) => [event.data.version, event.data.restoredFrom ?? null])).toEqual([
      [1, null],
      [2, null],
      [3, 1],
    ]);
    // The restore is in the rewind's own commit: its events follow the rewind's at once.
    expect(created[2]!.seq).toBe(rewinds[0]!.seq + 1);
    const completed = events.filter((event) => event.type === 'rewind/completed');
    expect(completed.map((event) => event.data)).toEqual([
      { rewindId: rewinds[0]!.data.rewindId, reloaded: [targetId], applied: [targetId], saved: [] },
    ]);
  }

  it('makes version 1 current again as version 3: the stage shows it with the values of then, and the log says so', async () => {
    const { session } = suite;
    const targetId = await writeAndPatch();
    await confirmVersionsRewind(targetId);
    await panel.waitForFunction(() => !document.querySelector('dialog.rewind-dialog'), { timeout: 20_000 });

    const frame = await artifactFrame(session, 'v1 r=90px');
    expect(await frame.evaluate(() => document.getElementById('readout')?.textContent)).toMatch(/^v1 r=90px/);
    expect(await stateInside(frame)).toMatchObject({ radius: 90 });
    const stage = await session.stagePage();
    expect(await stage.$eval('#target-title', (title) => title.textContent ?? '')).toContain('v3');
    await expectLoggedOnce(await currentSessionId(panel), targetId);
  }, 180_000);

  it('finishes a rewind whose worker was stopped after its commit, before the stage was reached: once', async () => {
    const { session } = suite;
    const targetId = await writeAndPatch();
    const sessionId = await currentSessionId(panel);
    // The stage does not hear a frame it makes from now on (the frame's window is hidden from it), so the rewind's
    // reload of the shown target (a new frame that must say it is ready) cannot finish there before the worker is
    // stopped. A capturing window listener of the test's did not hold the frame's messages back: under load the stage
    // still took them, and the rewind completed before the stop.
    const stage = await session.stagePage();
    await stage.evaluate(() => {
      const held = window as unknown as { holdFrameMessages: boolean };
      held.holdFrameMessages = true;
      const shown = new Set(document.querySelectorAll('iframe'));
      const contentWindow = Object.getOwnPropertyDescriptor(HTMLIFrameElement.prototype, 'contentWindow')!.get!;
      Object.defineProperty(HTMLIFrameElement.prototype, 'contentWindow', {
        configurable: true,
        get(this: HTMLIFrameElement) {
          return held.holdFrameMessages && !shown.has(this) ? null : contentWindow.call(this);
        },
      });
    });
    await confirmVersionsRewind(targetId);
    const deadline = Date.now() + 20_000;
    let rows = await readStoredLog(panel, sessionId);
    while (!rows.some((row) => row.type === 'rewind/applied') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      rows = await readStoredLog(panel, sessionId);
    }
    const committed = rows.slice(rows.findIndex((row) => row.type === 'rewind/applied')).map((row) => row.type);
    expect(committed).toEqual(['rewind/applied', 'artifact/created', 'artifact/ready', 'artifact/superseded']);

    await session.stopServiceWorker();
    // The stopped worker finished nothing of it on the stage.
    expect((await readStoredLog(panel, sessionId)).filter((row) => row.type === 'rewind/completed')).toEqual([]);
    await stage.evaluate(() => {
      (window as unknown as { holdFrameMessages: boolean }).holdFrameMessages = false;
    });
    console.log(`[rewind] worker stopped with ${rows.length} rows durable, the last ${rows.at(-1)?.type}`);

    // The restarted worker finishes it (the panel sends the same rewind again, and opens the conversation again):
    // the stage shows version 1's content as version 3, with the radius of then.
    expect(await waitForStoredRows(panel, sessionId, 'rewind/completed', 1, 30_000)).toBe(1);
    const frame = await artifactFrame(session, 'v1 r=90px');
    expect(await stateInside(frame)).toMatchObject({ radius: 90 });
    expect(await stage.$eval('#target-title', (title) => title.textContent ?? '')).toContain('v3');
    await panel.waitForSelector('.rewound-notice');
    await expectLoggedOnce(sessionId, targetId);
    // The panel's request, sent again to the new worker, was answered as the same rewind, finished.
    expect(await panel.$('.panel-error')).toBeNull();
  }, 180_000);
});
