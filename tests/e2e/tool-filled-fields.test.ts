import type { Page } from 'puppeteer-core';
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
  storedSetting,
} from './extension-harness';
import { chooseTarget, openPopup, waitForTargetValue } from './popup-driver';

// Dictation, text expanders, password managers and Puppeteer's fill of 100 characters or more set a field's
// `value` property and fire a plain `input` event. React's `onChange` drops that event (its value tracker saw the
// value arrive through the property), so every field here must take the value from `input` itself.

/** Sets a field the way such a tool does; `nth` picks among the fields the selector matches. */
async function setLikeATool(page: Page, selector: string, value: string, nth = 0): Promise<void> {
  await page.bringToFront();
  await page.$$eval(
    selector,
    (fields, text, index) => {
      const field = fields[index] as HTMLInputElement | HTMLTextAreaElement;
      field.focus();
      field.value = text;
      field.dispatchEvent(new Event('input', { bubbles: true }));
    },
    value,
    nth,
  );
}

async function waitForText(page: Page, selector: string, wanted: string): Promise<string> {
  await page
    .waitForFunction(
      (query, text) => (document.querySelector(query)?.textContent ?? '').includes(text),
      { polling: 100, timeout: 20_000 },
      selector,
      wanted,
    )
    .catch(() => undefined);
  return page.$eval(selector, (element) => element.textContent ?? '');
}

interface ChatRequestBody {
  messages: { role: string; content?: unknown }[];
}

function lastUserText(body: unknown): string {
  const content = (body as ChatRequestBody).messages.filter((message) => message.role === 'user').at(-1)?.content;
  return typeof content === 'string' ? content : JSON.stringify(content);
}

function lastToolResult(body: unknown): unknown {
  const tool = (body as ChatRequestBody).messages.filter((message) => message.role === 'tool').at(-1);
  return JSON.parse(String(tool?.content));
}

const EDITED =
  'Rather make it slow, "as slow as a snail", and say so in one sentence of at least one hundred characters.';
const API_KEY = `sk-filled-by-a-password-manager-${'x'.repeat(80)}`;

describe('fields that a tool fills (value property + input event)', () => {
  let server: ScriptedModelServer;
  let session: ExtensionSession;
  let panel: Page;

  beforeAll(async () => {
    server = await startScriptedModelServer();
    session = await launchExtension();
    await configureEndpoint(session, server.url);
    panel = await session.openPanel();
  }, 60_000);

  afterAll(async () => {
    await session?.close();
    await server?.close();
  });

  it('resends an edited message with the text a tool put into the edit box', async () => {
    server.setScript({ turns: [{ steps: [{ text: 'First answer.' }] }, { steps: [{ text: 'Second answer.' }] }] });
    await sendMessage(panel, 'Make it fast');
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');
    await panel.click('button[aria-label="Edit and resend"]');
    expect(EDITED.length).toBeGreaterThanOrEqual(100);
    await panel.locator('textarea[aria-label="Edit message"]').fill(EDITED);
    await panel.click('button::-p-text(Resend)');
    // The edit is a new branch in the edited message's place: the first version stays, one switch away.
    await panel.waitForSelector('nav[aria-label="Message 2 of 2"]');
    expect(await waitForTurnEnd(panel, 0)).toBe('completed');
    expect(lastUserText(server.requests.at(-1)!.body)).toBe(EDITED);
  }, 60_000);

  it('answers a question and a form with what a tool put into their fields', async () => {
    server.setScript({
      // The script's turn is the request's count of user messages: the branch in view already has the edited one.
      turns: [
        { steps: [{ text: 'The edited message’s turn.' }] },
        {
          steps: [
            { toolCalls: [{ name: 'askUser', arguments: { question: 'Which name?', answerType: 'text' } }] },
            { text: 'Named.' },
          ],
        },
        {
          steps: [
            {
              toolCalls: [
                {
                  name: 'askUser',
                  arguments: {
                    question: 'How should the label be printed?',
                    answerType: 'form',
                    form: {
                      fields: [
                        { id: 'width', label: 'Width', type: 'number', unit: 'mm', min: 10, max: 200, default: 50 },
                        { id: 'note', label: 'Note', type: 'text', required: false },
                        { id: 'color', label: 'Ink colour', type: 'color', default: '#1f4fd6' },
                        { id: 'opacity', label: 'Opacity', type: 'slider', min: 0, max: 100, step: 5, default: 80 },
                        { id: 'story', label: 'Story', type: 'text', multiline: true, required: false },
                      ],
                    },
                  },
                },
              ],
            },
            { text: 'Printing it so.' },
          ],
        },
      ],
    });
    await sendMessage(panel, 'Ask me a name.');
    await panel.waitForSelector('section.ask-card[data-status="pending"] input[aria-label="Your answer"]');
    await setLikeATool(panel, 'section.ask-card[data-status="pending"] input[aria-label="Your answer"]', 'Nemo');
    await panel.click('section.ask-card[data-status="pending"] button::-p-text(Answer)');
    expect(await waitForTurnEnd(panel, 1)).toBe('completed');
    expect(lastToolResult(server.requests.at(-1)!.body)).toEqual({ ok: true, answer: 'Nemo' });

    await sendMessage(panel, 'Print a label.');
    const card = 'section.ask-card[data-status="pending"]';
    await panel.waitForSelector(`${card} form.form-answer`);
    await setLikeATool(panel, `${card} input[data-field-id="width"]`, '120');
    await setLikeATool(panel, `${card} input[data-field-id="note"]`, 'Handle with care');
    await setLikeATool(panel, `${card} textarea[data-field-id="story"]`, 'Once upon a time');
    await setLikeATool(panel, `${card} input[data-field-id="color"]`, '#ff0000');
    await setLikeATool(panel, `${card} input[data-field-id="opacity"]`, '60');
    await panel.click(`${card} button[data-action-id="submit"]`);
    expect(await waitForTurnEnd(panel, 2)).toBe('completed');
    expect(lastToolResult(server.requests.at(-1)!.body)).toEqual({
      ok: true,
      answer: {
        actionId: 'submit',
        values: {
          width: 120,
          note: 'Handle with care',
          color: '#ff0000',
          opacity: 60,
          story: 'Once upon a time',
        },
      },
    });
  }, 60_000);

  it('searches the conversations for what a tool put into the search box', async () => {
    await panel.click('button[aria-label="Sessions"]');
    await panel.waitForSelector('ul[aria-label="Sessions"] li');
    await setLikeATool(panel, 'input[aria-label="Search conversations"]', 'no conversation says this');
    expect(await waitForText(panel, 'ul[aria-label="Sessions"]', 'No conversation matches.')).toBe(
      'No conversation matches.',
    );
    await panel.click('button[aria-label="Close conversations"]');
  });

  it('saves an endpoint whose address, model, key and name a tool filled', async () => {
    const options = await session.browser.newPage();
    await options.goto(`chrome-extension://${session.extensionId}/options.html`);
    await options.waitForSelector('ul[aria-label="Saved endpoints"]');
    await options.click('button::-p-text(Add endpoint)');
    await options.select('select[aria-label="Kind"]', 'openai-compatible');
    await setLikeATool(options, '[aria-label="Base URL"]', 'http://127.0.0.1:11434/v1');
    await setLikeATool(options, '[aria-label="Model"]', 'llama3.1');
    await options.locator('[aria-label="API key"]').fill(API_KEY);
    await setLikeATool(options, '[aria-label="Name"]', 'Filled by a tool');
    await options.click('form[aria-label="Endpoint"] button::-p-text(Save)');
    expect(await waitForText(options, 'form[aria-label="Endpoint"] p[role="status"]', 'Saved')).toContain('Saved');
    const stored = (await storedSetting(options, 'endpointProfiles')) as { profiles: Record<string, unknown>[] };
    expect(stored.profiles.find((profile) => profile.label === 'Filled by a tool')).toMatchObject({
      kind: 'openai-compatible',
      baseUrl: 'http://127.0.0.1:11434/v1',
      model: 'llama3.1',
      apiKey: API_KEY,
    });
    await options.close();
  });

  it('saves approval times and a budget that a tool filled', async () => {
    const options = await session.browser.newPage();
    await options.goto(`chrome-extension://${session.extensionId}/options.html`);
    await options.waitForSelector('form[aria-label="Approvals"]');
    await setLikeATool(options, 'form[aria-label="Approvals"] input[type="number"]', '240', 0);
    await setLikeATool(options, 'form[aria-label="Approvals"] input[type="number"]', '900', 1);
    await options.click('button::-p-text(Save approvals)');
    expect(await waitForText(options, 'form[aria-label="Approvals"] p[role="status"]', 'Saved')).toBe('Saved.');
    expect(await storedSetting(options, 'approvalPolicy')).toMatchObject({
      expiresAfterSeconds: 240,
      questionExpiresAfterSeconds: 900,
    });

    await setLikeATool(options, 'input[name="budget-conversation"]', '5000');
    await setLikeATool(options, 'input[aria-label^="input "]', '0.25', 0);
    await options.click('button::-p-text(Save usage settings)');
    expect(await waitForText(options, 'form[aria-label="Usage and budgets"] [role="status"]', 'Saved')).toBe('Saved.');
    const usage = (await storedSetting(options, 'usageSettings')) as {
      budgets: unknown;
      prices: { inputPerMillion: number }[];
    };
    expect(usage.budgets).toEqual({ conversation: { unit: 'tokens', limit: 5000 } });
    expect(usage.prices[0].inputPerMillion).toBe(0.25);
    await options.close();
  });

  it('adds a target from the address a tool put into the popup', async () => {
    const popup = await openPopup(session);
    await setLikeATool(popup, 'input[aria-label="Target URL"]', 'http://127.0.0.1:9/filled/');
    await popup.click('button::-p-text(Add)');
    expect(await waitForText(popup, '.add-target-result', '127.0.0.1:9')).toContain('http://127.0.0.1:9/filled/');
    await popup.close();
  });

  it('applies text and number parameters that a tool filled in the popup', async () => {
    const popup = await openPopup(session);
    await chooseTarget(popup, 'Data chart');
    const frame = await session.targetFrame('chart');
    await setLikeATool(popup, 'input[aria-label="title"]', 'Filled by a tool');
    await popup.keyboard.press('Enter');
    await waitForTargetValue(frame, 'title', 'Filled by a tool');
    await setLikeATool(popup, 'input[aria-label="points"]', '200');
    await waitForTargetValue(frame, 'points', 200);
    await popup.close();
  }, 60_000);

  it('applies a slider and a colour that a tool set in the popup', async () => {
    const popup = await openPopup(session);
    await chooseTarget(popup, 'Particle field');
    const frame = await session.targetFrame('particles');
    await setLikeATool(popup, 'input[aria-label="speed slider"]', '25');
    await waitForTargetValue(frame, 'speed', 25);
    await setLikeATool(popup, 'input[aria-label="color"]', '#ff0000');
    await waitForTargetValue(frame, 'color', '#ff0000');
    await popup.close();
  }, 60_000);
});
