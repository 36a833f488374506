const SECTIONS = [
  (index: number) =>
    `## Step ${index}: reading the parameters\n\nFirst I call **getParameters** to learn the exact names, units and ranges. The particle field exposes \`speed\` (m/s), \`mode\` and \`show_vectors\`; changing anything without reading them first risks a wrong name.\n\n`,
  (index: number) =>
    `- \`speed\` is ${8 + (index % 5)} m/s, between 0 and 50\n- \`mode\` is one of *auto*, *manual* or *vortex*\n- \`show_vectors\` draws each particle's velocity\n\n`,
  (index: number) =>
    `\`\`\`ts\nconst result = await setParameters({\n  changes: [\n    { param: 'speed', value: ${12 + (index % 7)} },\n    { param: 'show_vectors', value: true },\n  ],\n});\nconsole.log(result.applied);\n\`\`\`\n\n`,
  (index: number) =>
    `| Parameter | Before | After |\n|---|--:|--:|\n| speed | 8 m/s | ${12 + (index % 7)} m/s |\n| show_vectors | off | on |\n\n`,
  (index: number) =>
    `The update took effect at once: the [stage tab](https://example.org/stage/${index}) shows longer trails, and the vectors point along each particle's path. If the motion feels too busy, lowering the speed again by a few metres per second is a safe next step.\n\n`,
];

/** Roughly the size of one word, the way providers split text. */
function tokens(text: string): string[] {
  return text.match(/\s*\S{1,6}\s*|\s+/g) ?? [];
}

/** A long, realistic markdown answer cut into `count` deltas. */
export function benchAnswerTokens(count: number): string[] {
  const result: string[] = [];
  for (let index = 0; result.length < count; index++) result.push(...tokens(SECTIONS[index % SECTIONS.length](index)));
  return result.slice(0, count);
}

/** A finished answer in the history, about 400 characters with a list and inline code. */
export function benchHistoryAnswer(turn: number): string {
  return `Done: \`speed\` is now **${10 + (turn % 30)} m/s** (it was ${8 + (turn % 20)}).\n\n- vectors: ${turn % 2 ? 'on' : 'off'}\n- mode: vortex\n\nThe particles move faster in the stage tab; say if you want them slower, or a different mode. Turn ${turn}.`;
}
