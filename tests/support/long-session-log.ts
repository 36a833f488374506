import type { AgentEvent } from '../../lib/protocol/agent-event';
import { EventLog } from './event-log';

/** The product's normal turn: a question, a tool call with its card, then an answer with a code block and a table. */
function addTurn(log: EventLog, turn: number, lastLine: string): void {
  const turnId = `turn-${turn}`;
  const step = { turnId, stepId: `step-${turn}-0`, attemptId: `attempt-${turn}-0` };
  const answerStep = { turnId, stepId: `step-${turn}-1`, attemptId: `attempt-${turn}-1` };
  const toolCallId = `call-${turn}`;
  log.turnStarted(turnId, `Question number ${turn}: set the speed and show me the figures`);
  log.stepStarted(step, 0);
  log.toolRequested(turnId, step.stepId, toolCallId, { param: 'speed', value: turn % 40 });
  log.add({ type: 'tool/started', turnId, toolCallId, data: { targetId: 'particles' } });
  log.add({
    type: 'tool/completed',
    turnId,
    toolCallId,
    data: { output: { ok: true, state: { speed: turn % 40, count: 400 } }, durationMs: 12 },
  });
  log.add({ type: 'step/completed', ...step, data: { finishReason: 'tool-calls' } });
  log.stepStarted(answerStep, 1);
  const rows = Array.from({ length: 6 }, (_, row) => `| ${row} | ${turn * row} | ${row % 2 ? 'odd' : 'even'} |`);
  const text = [
    `Answer number **${turn}**: the speed is set. Here is the code that reads it back:`,
    '```js',
    ...Array.from({ length: 8 }, (_, line) => `const value${line} = target.read('speed') * ${line}; // line ${line}`),
    '```',
    'And the figures:',
    '| row | value | parity |',
    '| --- | --- | --- |',
    ...rows,
    '',
    lastLine,
  ].join('\n');
  log.completed({ ...answerStep, itemId: `answer-${turn}` }, text);
  log.add({ type: 'step/completed', ...answerStep, data: { finishReason: 'stop' } });
  log.turnCompleted(turnId);
}

/** The line that ends the last turn: a test asserts it is on screen after the conversation opens. */
/** In the panel page: whether the paragraph holding `line` is wholly inside the message list's visible box. */
export function lineInView(line: string): boolean {
  const list = document.querySelector('.message-list');
  if (!list) return false;
  const bounds = list.getBoundingClientRect();
  const holder = [...list.querySelectorAll('p')].find((paragraph) => paragraph.textContent?.includes(line));
  if (!holder) return false;
  const box = holder.getBoundingClientRect();
  return box.top >= bounds.top && box.bottom <= bounds.bottom;
}

export function lastLineOf(turns: number): string {
  return `That is all for turn ${turns - 1}.`;
}

/** A finished conversation of `turns` long turns, stamped as the runtime stamps it (durable events only). */
export function longSessionLog(sessionId: string, turns: number): AgentEvent[] {
  const log = new EventLog(sessionId);
  log.add({ type: 'session/created', data: { title: 'A long conversation with tool cards' } });
  for (let turn = 0; turn < turns; turn++) addTurn(log, turn, `That is all for turn ${turn}.`);
  return log.durable;
}

/** The durable events of a session, cut to about `count` events at a turn boundary. */
export function sessionOfSize(sessionId: string, count: number): AgentEvent[] {
  const perTurn = longSessionLog(sessionId, 1).length - 1;
  return longSessionLog(sessionId, Math.max(1, Math.round(count / perTurn)));
}
