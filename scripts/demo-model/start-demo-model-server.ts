import { startScriptedModelServer, type ScriptedModelServer } from '../scripted-model-server/scripted-model-server';
import { builtInDemoTargets } from './built-in-demo-targets';
import { demoModelResponder } from './demo-model-responder';

/**
 * The model server of `npm start`: every OpenAI chat completions request is answered by the offline demo model,
 * which knows the built-in targets of `targets/` to say which one has what the open target lacks.
 */
export function startDemoModelServer(options: { port?: number; host?: string } = {}): Promise<ScriptedModelServer> {
  return startScriptedModelServer({ ...options, respond: demoModelResponder({ knownTargets: builtInDemoTargets() }) });
}
