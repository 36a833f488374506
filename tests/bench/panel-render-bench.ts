/**
 * `npm run bench`: the side panel under a fast stream. 500 text deltas per second for 30 s land in a
 * conversation that already holds 5,000 messages, rendered by the real ChatPanel twice in one run:
 * once through the panel's EventBatcher (one state update and render per animation frame) and once
 * with a naive state update and render per delta. Prints `BENCH {json}`.
 */
import { createElement, useState } from 'react';
import { flushSync } from 'react-dom';
import { createRoot, type Root } from 'react-dom/client';
import { z } from 'zod';
import * as panelStyles from '../../entrypoints/shared/panel.css';
import { ChatPanel } from '../../components/chat/chat-panel';
import { AGENT_EVENT_SCHEMA_VERSION, type AgentEvent, type AgentEventDraft } from '../../lib/protocol/agent-event';
import type { EndpointSettings } from '../../lib/settings/endpoint-settings';
import { itemOf, type ClientState } from '../../lib/state/client-state';
import { frameScheduler } from '../../lib/panel/frame-scheduler';
import { EventBatcher } from '../../lib/state/event-batcher';
import { reduceEvents, replayLog } from '../../lib/state/reduce-events';
import { benchAnswerTokens, benchHistoryAnswer } from './bench-markdown';

z.config({ jitless: true });

const SESSION = 'bench-session';
const HISTORY_TURNS = 2_500; // a user message and an answer each: 5,000 messages
const DELTAS_PER_SECOND = 500;
const DURATION_MS = 30_000;
const TICK_MS = 4;

interface BenchWindow {
  gc?: () => void;
}
interface MemoryInfo {
  usedJSHeapSize: number;
}

function heapMegabytes(): number {
  const memory = (performance as unknown as { memory?: MemoryInfo }).memory;
  return memory ? Math.round((memory.usedJSHeapSize / 1048576) * 10) / 10 : Number.NaN;
}

async function collectGarbage(): Promise<void> {
  for (let round = 0; round < 3; round++) {
    (window as unknown as BenchWindow).gc?.();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function stamp(drafts: AgentEventDraft[], firstSeq: number): AgentEvent[] {
  let seq = firstSeq - 1;
  return drafts.map(
    (draft) => ({ ...draft, schemaVersion: AGENT_EVENT_SCHEMA_VERSION, seq: ++seq, durable: true }) as AgentEvent,
  );
}

function historyLog(): AgentEvent[] {
  const drafts: AgentEventDraft[] = [
    { type: 'session/created', sessionId: SESSION, time: 0, data: { title: 'A long conversation' } },
  ];
  for (let turn = 0; turn < HISTORY_TURNS; turn++) {
    const ids = { sessionId: SESSION, turnId: `turn-${turn}`, stepId: `step-${turn}`, attemptId: `attempt-${turn}` };
    drafts.push(
      {
        type: 'turn/started',
        sessionId: SESSION,
        turnId: ids.turnId,
        time: turn,
        data: {
          userItemId: `user-${turn}`,
          text: `Question ${turn}: make the particles a little faster and tell me what changed?`,
        },
      },
      { type: 'step/started', ...ids, time: turn, data: { index: 0 } },
      {
        type: 'assistant/completed',
        ...ids,
        itemId: `answer-${turn}`,
        time: turn,
        data: { text: benchHistoryAnswer(turn) },
      },
      { type: 'step/completed', ...ids, time: turn, data: { finishReason: 'stop' } },
      { type: 'turn/completed', sessionId: SESSION, turnId: ids.turnId, time: turn, data: { reason: 'stop' } },
    );
  }
  return stamp(drafts, 1);
}

const live = {
  sessionId: SESSION,
  turnId: 'live-turn',
  stepId: 'live-step',
  attemptId: 'live-attempt',
  itemId: 'live-answer',
};

function liveStart(lastSeq: number): AgentEvent[] {
  return stamp(
    [
      {
        type: 'turn/started',
        sessionId: SESSION,
        turnId: live.turnId,
        time: 0,
        data: { userItemId: 'live-user', text: 'Explain in detail how the particle field works.' },
      },
      {
        type: 'step/started',
        sessionId: SESSION,
        turnId: live.turnId,
        stepId: live.stepId,
        attemptId: live.attemptId,
        time: 0,
        data: { index: 0 },
      },
    ],
    lastSeq + 1,
  );
}

function delta(seq: number, index: number, text: string): AgentEvent {
  return {
    schemaVersion: AGENT_EVENT_SCHEMA_VERSION,
    type: 'assistant/delta',
    ...live,
    seq,
    time: 0,
    durable: false,
    data: { index, text },
  };
}

const endpoint: EndpointSettings = {
  kind: 'openai-compatible',
  label: 'Bench',
  baseUrl: 'http://127.0.0.1:1/v1',
  model: 'bench-model',
  apiKey: '',
  scripted: false,
};
const noop = () => undefined;

/** Mounts the real panel (its actions are the context's defaults, which do nothing); returns a setter that renders a new state synchronously. */
function mountPanel(container: HTMLElement, initial: ClientState): { root: Root; render(state: ClientState): void } {
  let setState: (state: ClientState) => void = noop;
  function Harness() {
    const [state, set] = useState(initial);
    setState = set;
    return createElement(ChatPanel, {
      state,
      endpoint,
      endpointLoaded: true,
      running: true,
      connection: { status: 'connected' },
      sessions: [],
      error: undefined,
    });
  }
  const root = createRoot(container);
  flushSync(() => root.render(createElement(Harness)));
  return { root, render: (state) => flushSync(() => setState(state)) };
}

function percentile(values: number[], fraction: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];
}

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

interface Variant {
  name: string;
  /** Receives each delta as it arrives; `apply` reduces and renders. */
  deliver(event: AgentEvent, apply: (events: AgentEvent[]) => void): void;
}

async function runVariant(
  variant: Variant,
  history: ClientState,
  tokens: string[],
): Promise<Record<string, number | string>> {
  const container = document.getElementById('root')!;
  await collectGarbage();
  let state = reduceEvents(history, liveStart(history.lastSeq));
  const panel = mountPanel(container, state);
  await new Promise((resolve) => setTimeout(resolve, 500));
  await collectGarbage();
  const heapBefore = heapMegabytes();

  const work = { reduce: 0, render: 0, layout: 0 };
  let renders = 0;
  const renderDurations: number[] = [];
  const apply = (events: AgentEvent[]) => {
    const started = performance.now();
    state = reduceEvents(state, events);
    const reduced = performance.now();
    panel.render(state);
    const rendered = performance.now();
    void container.offsetHeight; // style and layout belong to the cost of a render
    const laidOut = performance.now();
    work.reduce += reduced - started;
    work.render += rendered - reduced;
    work.layout += laidOut - rendered;
    renders += 1;
    renderDurations.push(laidOut - started);
  };

  const longTasks: number[] = [];
  const longTaskObserver = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longTasks.push(entry.duration);
  });
  longTaskObserver.observe({ type: 'longtask', buffered: false });
  const frameIntervals: number[] = [];
  let lastFrame = performance.now();
  let measuring = true;
  const onFrame = (now: number) => {
    frameIntervals.push(now - lastFrame);
    lastFrame = now;
    if (measuring) requestAnimationFrame(onFrame);
  };
  requestAnimationFrame(onFrame);
  let heapPeak = heapBefore;
  const heapSampler = setInterval(() => (heapPeak = Math.max(heapPeak, heapMegabytes())), 1000);

  const started = performance.now();
  let sent = 0;
  await new Promise<void>((done) => {
    const tick = setInterval(() => {
      const elapsed = performance.now() - started;
      if (elapsed >= DURATION_MS || sent >= tokens.length) {
        clearInterval(tick);
        done();
        return;
      }
      const due = Math.min(tokens.length, Math.floor((elapsed / 1000) * DELTAS_PER_SECOND));
      // A variant that falls behind gets the backlog in one task, as a real port would deliver it, but never past the end.
      while (sent < due && performance.now() - started < DURATION_MS) {
        variant.deliver(delta(state.lastSeq, sent, tokens[sent]), apply);
        sent += 1;
      }
    }, TICK_MS);
  });
  const wallMs = performance.now() - started;
  await new Promise((resolve) => setTimeout(resolve, 300));
  measuring = false;
  clearInterval(heapSampler);
  longTaskObserver.disconnect();
  const shownLength = itemOf(state, `${live.itemId}/${live.attemptId}`)?.text.length ?? 0;
  await collectGarbage();
  const heapAfter = heapMegabytes();
  panel.root.unmount();
  // What the mounted panel itself held: the streamed message's DOM and fibers, not a leak, if this returns to the start.
  await collectGarbage();
  const heapAfterUnmount = heapMegabytes();
  return {
    variant: variant.name,
    deltasSent: sent,
    deltasPerSecond: Math.round(sent / (wallMs / 1000)),
    renders,
    streamedCharacters: shownLength,
    longTasksOver50ms: longTasks.length,
    longestTaskMs: round(Math.max(0, ...longTasks)),
    longTaskTotalMs: Math.round(longTasks.reduce((sum, value) => sum + value, 0)),
    reduceMs: Math.round(work.reduce),
    reactRenderMs: Math.round(work.render),
    styleAndLayoutMs: Math.round(work.layout),
    mainThreadBusyShare: round((work.reduce + work.render + work.layout) / wallMs, 3),
    longestRenderMs: round(Math.max(0, ...renderDurations)),
    rendersOver50ms: renderDurations.filter((duration) => duration > 50).length,
    renderP95Ms: round(percentile(renderDurations, 0.95)),
    meanRenderMs: round((work.reduce + work.render + work.layout) / Math.max(1, renders), 2),
    frames: frameIntervals.length,
    frameIntervalP50Ms: round(percentile(frameIntervals, 0.5)),
    frameIntervalP95Ms: round(percentile(frameIntervals, 0.95)),
    frameIntervalMaxMs: round(Math.max(0, ...frameIntervals)),
    heapBeforeMB: heapBefore,
    heapAfterMB: heapAfter,
    heapPeakMB: heapPeak,
    heapGrowthMB: round(heapAfter - heapBefore),
    heapAfterUnmountMB: heapAfterUnmount,
  };
}

async function main(): Promise<Record<string, unknown>> {
  const style = document.createElement('style');
  style.textContent = (panelStyles as unknown as { default: string }).default;
  document.head.append(style);
  const container = document.createElement('div');
  container.id = 'root';
  container.style.cssText = 'width: 400px; height: 720px; position: relative;';
  document.body.append(container);

  const startedSetup = performance.now();
  const history = replayLog(SESSION, historyLog());
  const setupMs = Math.round(performance.now() - startedSetup);
  const tokens = benchAnswerTokens((DELTAS_PER_SECOND * DURATION_MS) / 1000);
  // The panel's own scheduler (entrypoints/sidepanel/side-panel-app.tsx).
  const scheduler = frameScheduler({
    requestAnimationFrame: (callback) => void requestAnimationFrame(callback),
    setTimeout: (callback, delay) => void setTimeout(callback, delay),
  });

  let batcher: EventBatcher | undefined;
  const batched: Variant = {
    name: 'batched per animation frame (the panel)',
    deliver: (event, apply) => {
      batcher ??= new EventBatcher(apply, scheduler);
      batcher.push(event);
    },
  };
  const naive: Variant = {
    name: 'naive: one state update and render per delta',
    deliver: (event, apply) => apply([event]),
  };

  const results = [await runVariant(batched, history, tokens), await runVariant(naive, history, tokens)];
  return {
    name: 'side panel under a fast stream',
    historyMessages: HISTORY_TURNS * 2,
    deltasPerSecondTarget: DELTAS_PER_SECOND,
    durationMs: DURATION_MS,
    historyReplayMs: setupMs,
    preciseHeap: typeof (window as unknown as BenchWindow).gc === 'function',
    results,
  };
}

main().then(
  (figures) => console.log(`BENCH ${JSON.stringify(figures)}`),
  (error: unknown) =>
    console.log(`BENCH-ERROR ${error instanceof Error ? `${error.message}\n${error.stack}` : String(error)}`),
);
