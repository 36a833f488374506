import { describe, expect, it } from 'vitest';
import { AGENT_EVENT_SCHEMA_VERSION, type AgentEvent } from '../protocol/agent-event';
import type { McpAppToolAnswer } from '../protocol/mcp-app-runtime-wire';
import type { ToolExecutionResult } from '../protocol/tool-execution-request';
import type { AppToolCall } from './app-tool-call';
import { AppMessageDrafts, mcpAppRequestRunner } from '../mcp/mcp-app-request-tools';
import { MAX_CONTEXT_UPDATES, McpAppCalls, type AppModelContext, type OpenedMcpApp } from './mcp-app-calls';
import { mcpAppOpeningCall, mcpAppOpeningTool } from './mcp-app-recovery';
import { MemoryBlobStore } from '../files/memory-blob-store';
import { bytesToBase64 } from '../files/bytes-to-base64';
import { sha256Hex } from '../files/sha256-hex';
import type { BlobRef } from '../protocol/blob-ref';
import { patternPng } from '../../tests/support/test-files';

const opened: OpenedMcpApp = { sessionId: 's1', serverId: 'apps', serverName: 'Apps', title: 'showCounter' };

const png = new Uint8Array(patternPng(4, 3, 9));
const pngImage = { data: bytesToBase64(png), mimeType: 'image/png' };

function setup(status: ToolExecutionResult['status'] = 'completed', recovered?: OpenedMcpApp, imageRefusal?: string) {
  const answers: McpAppToolAnswer[] = [];
  const asked: AppToolCall[] = [];
  const links: string[] = [];
  const reads: { serverId: string; uri: string }[] = [];
  const lists: { serverId: string; cursor: string | undefined }[] = [];
  const messages = new AppMessageDrafts(() => 'message-1');
  const heldDuringCall: (string | undefined)[] = [];
  const imagesDuringCall: BlobRef[][] = [];
  const blobStore = new MemoryBlobStore();
  const contexts: { app: OpenedMcpApp; targetId: string; context: AppModelContext }[] = [];
  const calls = new McpAppCalls({
    appToolName: async (serverId, name) => (serverId === 'apps' ? `mcp_apps_${name}` : undefined),
    runAppToolCall: async (call) => {
      asked.push(call);
      heldDuringCall.push(messages.text('message-1'));
      imagesDuringCall.push(messages.images('message-1'));
      return status === 'waiting'
        ? { status, requestId: 'r', output: null, replayed: false }
        : { status, output: { ok: status === 'completed', text: 'done' }, replayed: false };
    },
    answer: (_targetId, _requestId, answer) => answers.push(answer),
    readResource: async (serverId, uri) => {
      reads.push({ serverId, uri });
      return { result: { contents: [{ uri, text: 'page' }] } };
    },
    listResources: async (serverId, cursor) => {
      lists.push({ serverId, cursor });
      return { result: { resources: [{ uri: 'note://a', name: 'a' }], nextCursor: 'page-2' } };
    },
    openLink: async (url) => void links.push(url),
    recoverApp: async () => recovered,
    messages,
    recordContext: async (app, targetId, context) => void contexts.push({ app, targetId, context }),
    blobStore,
    imageRefusal: async () => imageRefusal,
  });
  return {
    calls,
    answers,
    asked,
    links,
    reads,
    lists,
    messages,
    heldDuringCall,
    imagesDuringCall,
    contexts,
    blobStore,
  };
}

describe('McpAppCalls requests', () => {
  it('records what an app tells the model without asking, once per change, and refuses an app past its count', async () => {
    const { calls, answers, asked, contexts } = setup();
    calls.opened('mcp-app-1', opened);
    const context = {
      method: 'ui/update-model-context' as const,
      text: 'Count is 3.',
      structuredContent: { count: 3 },
    };
    await calls.request('mcp-app-1', 'c1', context);
    await calls.request('mcp-app-1', 'c2', context);
    await calls.request('mcp-app-1', 'c3', { method: 'ui/update-model-context', text: 'Count is 4.' });
    expect(asked).toEqual([]);
    expect(contexts).toEqual([
      { app: opened, targetId: 'mcp-app-1', context: { text: 'Count is 3.', structuredContent: { count: 3 } } },
      { app: opened, targetId: 'mcp-app-1', context: { text: 'Count is 4.' } },
    ]);
    expect(answers).toEqual([{ result: {} }, { result: {} }, { result: {} }]);
    for (let update = 2; update < MAX_CONTEXT_UPDATES; update++)
      await calls.request('mcp-app-1', `u${update}`, { method: 'ui/update-model-context', text: `${update}` });
    expect(contexts).toHaveLength(MAX_CONTEXT_UPDATES);
    await calls.request('mcp-app-1', 'over', { method: 'ui/update-model-context', text: 'one more' });
    expect(answers.at(-1)).toEqual({
      error: `Context update denied: this app has updated the model's context ${MAX_CONTEXT_UPDATES} times.`,
    });
    expect(contexts).toHaveLength(MAX_CONTEXT_UPDATES);
  });

  it('refuses a context of an app the log does not know', async () => {
    const { calls, answers, contexts } = setup();
    await calls.request('mcp-app-9', 'c1', { method: 'ui/update-model-context', text: 'x' });
    expect(contexts).toEqual([]);
    expect(answers[0]).toHaveProperty('error');
  });

  it('adds an app’s message only through the user’s approval, holding its text out of the call the model replays', async () => {
    const { calls, answers, asked, messages, heldDuringCall } = setup();
    calls.opened('mcp-app-1', opened);
    await calls.request('mcp-app-1', 'q1', { method: 'ui/message', text: 'Count to fifty.' });
    expect(asked).toEqual([
      {
        sessionId: 's1',
        note: 'The MCP App “showCounter” asks to add a message to the conversation.',
        toolName: 'app_send_message',
        input: { app: 'showCounter', messageId: 'message-1' },
      },
    ]);
    expect(heldDuringCall).toEqual(['Count to fifty.']);
    expect(messages.text('message-1')).toBeUndefined();
    expect(answers).toEqual([{ result: {} }]);
  });

  it('keeps a message’s images before the approval card shows them, owned by the held message', async () => {
    const { calls, answers, asked, blobStore, imagesDuringCall, messages } = setup();
    calls.opened('mcp-app-1', opened);
    await calls.request('mcp-app-1', 'q1', { method: 'ui/message', text: 'Look.', images: [pngImage] });
    const sha256 = await sha256Hex(png);
    expect(asked[0]?.input).toEqual({ app: 'showCounter', messageId: 'message-1' });
    expect(imagesDuringCall).toEqual([
      [
        {
          blobId: sha256,
          sha256,
          mime: 'image/png',
          size: png.byteLength,
          name: 'showCounter-image-1.png',
          width: 4,
          height: 3,
        },
      ],
    ]);
    expect(await blobStore.read(sha256)).toEqual(png);
    expect(await blobStore.referenceCount(sha256)).toBe(1);
    expect(messages.images('message-1')).toEqual([]);
    expect(answers).toEqual([{ result: {} }]);
  });

  it('refuses a message or context whose image fails a check, or that the endpoint cannot take, keeping nothing', async () => {
    const { calls, answers, asked, blobStore, contexts, messages } = setup();
    calls.opened('mcp-app-1', opened);
    const lying = { data: pngImage.data, mimeType: 'image/gif' };
    await calls.request('mcp-app-1', 'q1', { method: 'ui/message', text: 'Look.', images: [pngImage, lying] });
    await calls.request('mcp-app-1', 'c1', { method: 'ui/update-model-context', text: '', images: [lying] });
    expect(answers).toEqual([
      { error: 'The message was not sent: Image 2 is declared image/gif, but its bytes are image/png.' },
      { error: 'Context update refused: Image 1 is declared image/gif, but its bytes are image/png.' },
    ]);
    expect(asked).toEqual([]);
    expect(contexts).toEqual([]);
    expect(blobStore.blobs.size).toBe(0);
    expect(messages.text('message-1')).toBeUndefined();

    const textOnly = setup('completed', undefined, 'This endpoint (openai-compatible) does not take images.');
    textOnly.calls.opened('mcp-app-1', opened);
    await textOnly.calls.request('mcp-app-1', 'q1', { method: 'ui/message', text: 'Look.', images: [pngImage] });
    await textOnly.calls.request('mcp-app-1', 'q2', { method: 'ui/message', text: 'Text goes.' });
    expect(textOnly.answers).toEqual([
      { error: 'The message was not sent: This endpoint (openai-compatible) does not take images.' },
      { result: {} },
    ]);
    expect(textOnly.asked).toHaveLength(1);
    expect(textOnly.blobStore.blobs.size).toBe(0);
  });

  it('records a context’s images, kept for the app, and does not write the same context and images twice', async () => {
    const { calls, answers, contexts, blobStore } = setup();
    calls.opened('mcp-app-1', opened);
    const context = { method: 'ui/update-model-context' as const, text: 'The chart.', images: [pngImage] };
    await calls.request('mcp-app-1', 'c1', context);
    await calls.request('mcp-app-1', 'c2', context);
    await calls.request('mcp-app-1', 'c3', { method: 'ui/update-model-context', text: 'The chart.' });
    const sha256 = await sha256Hex(png);
    expect(contexts.map((entry) => entry.context)).toEqual([
      { text: 'The chart.', images: [expect.objectContaining({ blobId: sha256, name: 'showCounter-image-1.png' })] },
      { text: 'The chart.' },
    ]);
    expect(answers).toEqual([{ result: {} }, { result: {} }, { result: {} }]);
    expect(await blobStore.referenceCount(sha256)).toBe(1);
  });

  it('opens a link only once its call completed; a denied one is answered with an error and opens nothing', async () => {
    const allowed = setup('completed');
    allowed.calls.opened('mcp-app-1', opened);
    await allowed.calls.request('mcp-app-1', 'q1', { method: 'ui/open-link', url: 'https://example.com/' });
    expect(allowed.asked[0]?.toolName).toBe('app_open_link');
    expect(allowed.links).toEqual(['https://example.com/']);
    expect(allowed.answers).toEqual([{ result: {} }]);

    const denied = setup('denied');
    denied.calls.opened('mcp-app-1', opened);
    await denied.calls.request('mcp-app-1', 'q1', { method: 'ui/open-link', url: 'https://example.com/' });
    await denied.calls.request('mcp-app-1', 'q2', { method: 'ui/message', text: 'hi' });
    expect(denied.links).toEqual([]);
    expect(denied.answers).toEqual([
      { error: 'Link opening denied by the user.' },
      { error: 'Message sending denied by the user.' },
    ]);
  });

  it('reads resources from the app’s own server, without asking', async () => {
    const { calls, answers, asked, reads } = setup();
    calls.opened('mcp-app-1', opened);
    await calls.request('mcp-app-1', 'q1', { method: 'resources/read', uri: 'ui://counter/app.html' });
    expect(reads).toEqual([{ serverId: 'apps', uri: 'ui://counter/app.html' }]);
    expect(asked).toEqual([]);
    expect(answers).toEqual([{ result: { contents: [{ uri: 'ui://counter/app.html', text: 'page' }] } }]);
  });

  it('lists the resources of the app’s own server, a page at a time, without asking', async () => {
    const { calls, answers, asked, lists } = setup();
    calls.opened('mcp-app-1', opened);
    await calls.request('mcp-app-1', 'q1', { method: 'resources/list' });
    await calls.request('mcp-app-1', 'q2', { method: 'resources/list', cursor: 'page-2' });
    expect(lists).toEqual([
      { serverId: 'apps', cursor: undefined },
      { serverId: 'apps', cursor: 'page-2' },
    ]);
    expect(asked).toEqual([]);
    expect(answers[0]).toEqual({ result: { resources: [{ uri: 'note://a', name: 'a' }], nextCursor: 'page-2' } });
  });

  it('asks once for all the files of a download, by name, type and size, and answers the user’s word', async () => {
    const files = [
      { name: 'report.csv', mimeType: 'text/csv', size: 27 },
      { name: 'chart.png', mimeType: 'image/png', size: 4096 },
    ];
    const allowed = setup('completed');
    allowed.calls.opened('mcp-app-1', opened);
    await allowed.calls.request('mcp-app-1', 'q1', { method: 'ui/download-file', files });
    expect(allowed.asked).toEqual([
      {
        sessionId: 's1',
        note: 'The MCP App “showCounter” asks to save 2 files.',
        toolName: 'app_download_file',
        input: {
          app: 'showCounter',
          files: [
            { name: 'report.csv', type: 'text/csv', size: '27 B' },
            { name: 'chart.png', type: 'image/png', size: '4 KB' },
          ],
        },
      },
    ]);
    expect(allowed.answers).toEqual([{ result: {} }]);

    const denied = setup('denied');
    denied.calls.opened('mcp-app-1', opened);
    await denied.calls.request('mcp-app-1', 'q1', { method: 'ui/download-file', files: [files[0]] });
    expect(denied.asked[0]?.note).toBe('The MCP App “showCounter” asks to save report.csv.');
    expect(denied.answers).toEqual([{ error: 'Download denied by the user.' }]);
  });

  it('finds an app it did not open (a restart) from the log, and refuses one the log does not know', async () => {
    const known = setup('completed', opened);
    await known.calls.call('mcp-app-9', 'c1', { name: 'incrementCounter', arguments: { by: 1 } });
    expect(known.asked[0]).toMatchObject({ sessionId: 's1', toolName: 'mcp_apps_incrementCounter' });

    const unknown = setup('completed', undefined);
    await unknown.calls.request('mcp-app-9', 'q1', { method: 'resources/read', uri: 'ui://x' });
    expect(unknown.reads).toEqual([]);
    expect(unknown.answers).toEqual([
      { error: 'This app is not known to the extension any more; ask for it to be opened again.' },
    ]);
  });
});

function logEvent(seq: number, fields: Record<string, unknown>): AgentEvent {
  return {
    schemaVersion: AGENT_EVENT_SCHEMA_VERSION,
    sessionId: 's1',
    seq,
    time: seq,
    durable: true,
    turnId: 't1',
    ...fields,
  } as AgentEvent;
}

describe('an app’s opening, found again after a restart', () => {
  it('takes the session and call from the stage’s record of the opening', () => {
    const recent = [
      { callKey: 's0/other', type: 'open' as const, targetId: 'particles', state: {} },
      { callKey: 's1/show-1', type: 'open' as const, targetId: 'mcp-app-1', state: {} },
    ];
    expect(mcpAppOpeningCall(recent, 'mcp-app-1')).toEqual({ sessionId: 's1', toolCallId: 'show-1' });
    expect(mcpAppOpeningCall(recent, 'mcp-app-2')).toBeUndefined();
  });

  it('names the tool only when that call’s completed output says it opened this app', () => {
    const events = [
      logEvent(1, {
        type: 'tool/requested',
        stepId: 'p1',
        toolCallId: 'show-1',
        data: { toolName: 'mcp_apps_showCounter', input: {} },
      }),
      logEvent(2, {
        type: 'tool/completed',
        toolCallId: 'show-1',
        data: { output: { ok: true, app: { targetId: 'mcp-app-1' } }, durationMs: 1 },
      }),
    ];
    expect(mcpAppOpeningTool(events, 'show-1', 'mcp-app-1')).toBe('mcp_apps_showCounter');
    expect(mcpAppOpeningTool(events, 'show-1', 'mcp-app-2')).toBeUndefined();
    expect(mcpAppOpeningTool(events, 'other', 'mcp-app-1')).toBeUndefined();
  });
});

describe('the app request tools', () => {
  const services = { policy: async () => ({ expiresAfterSeconds: 60 }) } as never;
  const call = {} as never;

  it('show the held message in the approval card and give it to the model only as the allowed call’s result', async () => {
    const drafts = new AppMessageDrafts(() => 'message-1');
    const messageId = drafts.hold('Count to fifty.')!;
    const runner = mcpAppRequestRunner('app_send_message', drafts)!;
    const input = { app: 'showCounter', messageId };
    expect(await runner.approve!(input, services, call)).toEqual({
      required: true,
      summary: 'Add the MCP App “showCounter”’s message to this conversation: “Count to fifty.”',
      expiresAfterMs: 60_000,
    });
    expect(await runner.execute(input, services, call)).toEqual({
      ok: true,
      text: 'The user added the MCP App “showCounter”’s message: Count to fifty.',
    });
    drafts.release(messageId);
    expect(await runner.execute(input, services, call)).toEqual({
      ok: false,
      error: 'The app’s message is no longer held; nothing was added.',
    });
  });

  it('show a held message’s images in the card and give them to the model as the allowed call’s images', async () => {
    const drafts = new AppMessageDrafts(() => 'message-1');
    const image: BlobRef = {
      blobId: 'a'.repeat(64),
      sha256: 'a'.repeat(64),
      mime: 'image/png',
      size: 3,
      name: 'x.png',
    };
    const messageId = drafts.hold('See this.')!;
    drafts.attachImages(messageId, [image, image]);
    const runner = mcpAppRequestRunner('app_send_message', drafts)!;
    const input = { app: 'showCounter', messageId };
    expect(await runner.approve!(input, services, call)).toEqual({
      required: true,
      summary: 'Add the MCP App “showCounter”’s message to this conversation: “See this.”, with 2 images',
      images: [image, image],
      expiresAfterMs: 60_000,
    });
    expect(await runner.execute(input, services, call)).toEqual({
      ok: true,
      text: 'The user added the MCP App “showCounter”’s message: “See this.”, with 2 images',
      images: [image, image],
    });
    const alone = drafts.hold('')!;
    drafts.attachImages(alone, [image]);
    expect(await runner.approve!({ app: 'showCounter', messageId: alone }, services, call)).toMatchObject({
      summary: 'Add the MCP App “showCounter”’s message to this conversation: 1 image',
    });
  });

  it('always ask, and own only their three names', async () => {
    const runner = mcpAppRequestRunner('app_open_link')!;
    expect(await runner.approve!({ app: 'a', url: 'https://example.com/' }, services, call)).toMatchObject({
      required: true,
      summary: 'Open https://example.com/ in a new tab, as the MCP App “a” asks.',
    });
    const download = mcpAppRequestRunner('app_download_file')!;
    const one = { app: 'a', files: [{ name: 'report.csv', type: 'text/csv', size: '27 B' }] };
    expect(await download.approve!(one, services, call)).toMatchObject({
      required: true,
      summary: 'The MCP App “a” wants to save report.csv (text/csv, 27 B).',
    });
    const two = { app: 'a', files: [...one.files, { name: 'dot.png', type: 'image/png', size: '4 KB' }] };
    expect(await download.approve!(two, services, call)).toMatchObject({
      summary: 'The MCP App “a” wants to save 2 files: report.csv (text/csv, 27 B), dot.png (image/png, 4 KB).',
    });
    expect(await download.approve!({ app: 'a' }, services, call)).toMatchObject({
      summary: 'The MCP App “a” wants to save files it does not name.',
    });
    expect(await download.execute(one, services, call)).toEqual({
      ok: true,
      text: 'The user allowed the files to be saved.',
    });
    expect(mcpAppRequestRunner('app_anything')).toBeUndefined();
    expect(mcpAppRequestRunner('mcp_apps_showCounter')).toBeUndefined();
  });
});
