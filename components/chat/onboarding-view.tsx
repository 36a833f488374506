import { BrandMark, SettingsIcon } from '../shared/icons';
import { usePanelActions } from '../shared/panel-actions';
import { ShortcutHint, type PanelShortcut } from './shortcut-hint';

/** First run: no model endpoint yet. */
export function OnboardingView({ shortcut }: { shortcut?: PanelShortcut }) {
  const { openOptions } = usePanelActions();
  return (
    <section className="onboarding" aria-labelledby="onboarding-title">
      <div className="hero-mark">
        <BrandMark size={24} />
      </div>
      <h2 id="onboarding-title">Connect a model to get started</h2>
      <p>
        Splitbrain lets a language model drive small web apps in your browser. It talks to a model endpoint you choose;
        nothing is sent anywhere else.
      </p>
      <ol className="onboarding-steps">
        <li>
          <strong>Open settings</strong> and enter a base URL and a model.
        </li>
        <li>
          <strong>Add an API key</strong> if the endpoint needs one (local servers usually don’t).
        </li>
        <li>
          <strong>Ask</strong> for a change, e.g. “make the particles faster”.
        </li>
      </ol>
      <button type="button" className="button-primary" onClick={openOptions}>
        <SettingsIcon /> Open settings
      </button>
      <p className="onboarding-hint">
        Works with OpenAI, Ollama, LM Studio, vLLM, OpenRouter and any OpenAI-compatible server.
      </p>
      {shortcut && <ShortcutHint shortcut={shortcut} />}
    </section>
  );
}
