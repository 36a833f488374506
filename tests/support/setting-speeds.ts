import type { Script } from '../../scripts/scripted-model-server/script';

/** The first message reads the particles and sets 12 m/s; the second sets 30 m/s and turns the vectors on. */
export const SETTING_SPEEDS: Script = {
  turns: [
    {
      steps: [
        { toolCalls: [{ name: 'getParameters', arguments: {} }] },
        { toolCalls: [{ name: 'setParameter', arguments: { param: 'speed', value: 12 } }] },
        { text: 'Speed 12.' },
      ],
    },
    {
      steps: [
        {
          toolCalls: [
            {
              name: 'setParameters',
              arguments: {
                changes: [
                  { param: 'speed', value: 30 },
                  { param: 'show_vectors', value: true },
                ],
              },
            },
          ],
        },
        { text: 'Speed 30, vectors on.' },
      ],
    },
  ],
};
