import type { Script } from './script';

/** Newcomer demo against the particle-field target: read the parameters, change two, report back. */
export const demoScript: Script = {
  name: 'particle-field demo',
  turns: [
    {
      steps: [
        { toolCalls: [{ name: 'getParameters', arguments: {} }] },
        {
          toolCalls: [
            {
              name: 'setParameters',
              arguments: {
                changes: [
                  { param: 'speed', value: 12 },
                  { param: 'show_vectors', value: true },
                ],
              },
            },
          ],
        },
        {
          text: 'Speed is now 12 m/s and velocity vectors are on. (This reply comes from the scripted demo model, not a real one.)',
        },
      ],
    },
  ],
};
