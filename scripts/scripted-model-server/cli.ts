import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { demoScript } from './demo-script';
import { scriptSchema, type Script } from './script';
import { startScriptedModelServer } from './scripted-model-server';
import { errorText } from '../../lib/protocol/error-text';

const usage = 'Usage: tsx tests/model-server/cli.ts [--port 4010] [--host 127.0.0.1] [--script path.json]';

async function loadScript(path: string): Promise<Script> {
  const text = await readFile(path, 'utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${path} is not valid JSON: ${errorText(error)}`);
  }
  const parsed = scriptSchema.safeParse(value);
  if (!parsed.success) throw new Error(`${path} is not a valid script:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '4010' },
      host: { type: 'string', default: '127.0.0.1' },
      script: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(usage);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Invalid --port ${values.port}\n${usage}`);

  const script = values.script === undefined ? demoScript : await loadScript(values.script);
  const server = await startScriptedModelServer({ port, host: values.host, script });
  console.log(`Scripted model server (${script.name ?? 'unnamed script'}) listening on ${server.origin}`);
  console.log(`  OpenAI chat:      POST ${server.origin}/v1/chat/completions`);
  console.log(`  OpenAI Responses: POST ${server.origin}/v1/responses`);
  console.log(`  Anthropic:        POST ${server.origin}/v1/messages`);
  console.log(`  Gemini:           POST ${server.origin}/v1beta/models/{model}:streamGenerateContent?alt=sse`);
  console.log(`  AI SDK UI stream: POST ${server.origin}/api/chat`);
  console.log(`Model id: scripted-model. Control: POST ${server.origin}/__control/script`);

  const stop = (): void => {
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(errorText(error));
  process.exit(1);
});
