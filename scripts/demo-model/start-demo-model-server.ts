import { startScriptedModelServer, type ScriptedModelServer } from '../scripted-model-server/scripted-model-server';
import { demoModelResponder } from './demo-model-responder';

/** The model server of `npm start`: every OpenAI chat completions request is answered by the offline demo model. */
export function startDemoModelServer(options: { port?: number; host?: string } = {}): Promise<ScriptedModelServer> {
  return startScriptedModelServer({ ...options, respond: demoModelResponder() });
}
