import type { DemoCallRecord, DemoConversation, DemoReply } from './demo-conversation';
import {
  appliedResultSchema,
  demoSchemaOf,
  failedResultSchema,
  openedTargetSchema,
  resetResultSchema,
  targetListSchema,
  type DemoParameter,
  type DemoSchema,
  type DemoTarget,
} from './demo-tool-results';
import { changeSummary, declineText, describeTarget, examples, targetListText, unresolvedText } from './demo-text';
import { interpretRequest, type RequestPlan } from './interpret-request';
import { clausesElsewhere, type ClauseElsewhere } from './clauses-elsewhere';
import { foreignNames } from './foreign-names';
import { demoPageReply } from './demo-page-reply';
import { demoScriptReply } from './demo-script-reply';
import { pageRequestOf } from './page-request';
import { scriptRequestOf } from './script-request';
import { mentionedTarget, type TargetMention } from './mentioned-target';
import { stem } from './request-words';

const targetListPattern = /\b(which|what|list( the)?|show( me)?( the)?) (targets|apps)\b/i;

/**
 * The offline demo model: one step of a turn, decided from the request and the results of the calls it made
 * so far in this turn. It lists the targets, opens the one the request names, reads the schema, then sets
 * what it understood and confirms from the values the target applied. Requests about the web page in front
 * (click by name, what is on it) and a few scripts go to the page and job tools when the request offers them.
 * `knownTargets` (the built-in targets' manifests) only say which listed target has what the open one lacks.
 */
export function demoReply(conversation: DemoConversation, knownTargets: readonly DemoSchema[] = []): DemoReply {
  const request = lastUserText(conversation);
  if (request === undefined)
    return text('Ask me to change something on the open target, e.g. "what can I change here?".');
  const offered = new Set(conversation.tools);
  const calls = callsOfThisTurn(conversation);
  const page = offered.has('observePage') && offered.has('actOnPage') ? pageRequestOf(request) : undefined;
  if (page) return demoPageReply(page, calls);
  const script = offered.has('runScript') ? scriptRequestOf(request) : undefined;
  if (script) return demoScriptReply(script, calls);
  if (!offered.has('getParameters') || !offered.has('setParameters')) {
    return text('This request offers no Splitbrain target tools, so the offline demo can do nothing with it.');
  }
  if (offered.has('listTargets') && !calls.some((call) => call.name === 'listTargets')) return call('listTargets');
  const targets = targetListSchema.safeParse(lastOutput(calls, 'listTargets')).data?.targets ?? [];
  if (targetListPattern.test(request)) return text(targetListText(targets));
  const mention = mentionedTarget(request, targets);
  const opening = openingStep(calls, targets, mention);
  if (opening) return opening;
  const schemaStep = schemaOrStep(calls);
  if ('kind' in schemaStep) return schemaStep;
  return actingStep(request, calls, schemaStep.schema, mention, listedTargets(targets, knownTargets));
}

/** The known targets that listTargets lists, under the titles it gives them. */
function listedTargets(targets: readonly DemoTarget[], knownTargets: readonly DemoSchema[]): DemoSchema[] {
  return knownTargets.flatMap((known) => {
    const listed = targets.find((target) => target.id === known.targetId);
    return listed ? [{ ...known, title: listed.title }] : [];
  });
}

function openingStep(
  calls: readonly DemoCallRecord[],
  targets: readonly DemoTarget[],
  mention: TargetMention | undefined,
): DemoReply | undefined {
  const opened = calls.find((record) => record.name === 'openTarget');
  if (opened) {
    const failed = failedResultSchema.safeParse(opened.output);
    return failed.success ? text(`I could not open that target: ${failed.data.error}`) : undefined;
  }
  const active = targets.find((target) => target.active)?.id;
  if (mention && mention.target.id !== active) return call('openTarget', { targetId: mention.target.id });
  return undefined;
}

/** The schema read after the last opening, or the step that reads it. */
function schemaOrStep(calls: readonly DemoCallRecord[]): { schema: DemoSchema } | DemoReply {
  const openedAt = calls.findLastIndex((record) => record.name === 'openTarget');
  const read = calls.slice(openedAt + 1).findLast((record) => record.name === 'getParameters');
  if (!read) return call('getParameters');
  const schema = demoSchemaOf(read.output);
  if (schema) return { schema };
  const failed = failedResultSchema.safeParse(read.output);
  return text(`I could not read the parameters: ${failed.success ? failed.data.error : 'the result had no schema'}.`);
}

function actingStep(
  request: string,
  calls: readonly DemoCallRecord[],
  schema: DemoSchema,
  mention: TargetMention | undefined,
  known: readonly DemoSchema[],
): DemoReply {
  const others = known.filter((target) => target.targetId !== schema.targetId);
  const plan = interpretRequest(request, schema.parameters, {
    targetWords: wordsToLeaveOut(mention, schema.parameters),
    targetTitle: mention ? `${mention.target.id} ${mention.target.title}` : '',
    foreign: foreignNames(schema, others),
  });
  const reset = calls.find((record) => record.name === 'resetTarget');
  if (plan.resetAll && !reset) return call('resetTarget');
  const set = calls.find((record) => record.name === 'setParameters');
  if (plan.changes.length > 0 && !set && !failedResultSchema.safeParse(reset?.output).success) {
    return call('setParameters', { changes: plan.changes.map((change) => ({ ...change })) });
  }
  const elsewhere = clausesElsewhere(plan.unknown, schema, others);
  return text(finalText(request, calls, schema, { ...plan, elsewhere }, { reset, set }));
}

/** Target words that are no parameter's words: "particles" stays, since it is part of particle_count. */
function wordsToLeaveOut(mention: TargetMention | undefined, parameters: readonly DemoParameter[]): string[] {
  const parameterWords = new Set(parameters.flatMap((parameter) => parameter.name.split('_').map(stem)));
  return (mention?.words ?? []).filter((word) => !parameterWords.has(stem(word)));
}

function finalText(
  request: string,
  calls: readonly DemoCallRecord[],
  schema: DemoSchema,
  plan: RequestPlan & { readonly elsewhere: readonly ClauseElsewhere[] },
  done: { reset: DemoCallRecord | undefined; set: DemoCallRecord | undefined },
): string {
  const failure = [done.reset, done.set]
    .map((record) => failedResultSchema.safeParse(record?.output))
    .find((result) => result.success)?.data;
  if (failure) return `Nothing changed: ${failure.error}`;
  const said: string[] = [];
  const opened = calls.some(
    (record) => record.name === 'openTarget' && openedTargetSchema.safeParse(record.output).success,
  );
  if (opened) said.push(`Opened ${schema.title}.`);
  if (resetResultSchema.safeParse(done.reset?.output).success) said.push(`${schema.title} is back to its defaults.`);
  const applied = appliedResultSchema.safeParse(done.set?.output);
  if (applied.success) {
    const clamped = (applied.data.clamped ?? []).map((entry) => entry.param);
    said.push(`${capitalized(changeSummary(schema, applied.data.applied, clamped))}.`);
  }
  const nothingDone = said.length === 0 && !plan.describe;
  const unresolved = plan.ambiguous.length + plan.missing.length + plan.elsewhere.length;
  if (nothingDone && unresolved === 0) return declineText(request, schema);
  said.push(...unresolvedText(plan, schema, plan.elsewhere));
  if (plan.describe) said.push(describeTarget(schema));
  else if (opened && said.length === 1) said.push(`Try ${examples(schema)}.`);
  return said.join(' ');
}

function capitalized(sentence: string): string {
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

function lastUserText(conversation: DemoConversation): string | undefined {
  const message = conversation.messages.findLast((candidate) => candidate.role === 'user');
  return message?.role === 'user' ? message.text : undefined;
}

/** The calls after the last user message, each with the output that came back for it. */
function callsOfThisTurn(conversation: DemoConversation): DemoCallRecord[] {
  const lastUser = conversation.messages.findLastIndex((message) => message.role === 'user');
  const turn = conversation.messages.slice(lastUser + 1);
  const outputs = new Map<string, unknown>();
  for (const message of turn) if (message.role === 'tool') outputs.set(message.toolCallId, message.output);
  return turn.flatMap((message) =>
    message.role === 'assistant'
      ? message.toolCalls.map((toolCall) => ({
          name: toolCall.name,
          arguments: toolCall.arguments,
          output: outputs.get(toolCall.id),
        }))
      : [],
  );
}

function lastOutput(calls: readonly DemoCallRecord[], name: string): unknown {
  return calls.findLast((record) => record.name === name)?.output;
}

function call(name: string, input: Record<string, unknown> = {}): DemoReply {
  return { kind: 'tool-calls', calls: [{ name, arguments: input }] };
}

function text(content: string): DemoReply {
  return { kind: 'text', text: content };
}
