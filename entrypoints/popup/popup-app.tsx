import { useCallback, useEffect, useRef, useState } from 'react';
import { ToolbarPopup } from '@/components/popup/toolbar-popup';
import type { ParameterValue } from '@/lib/manifest/parameter-validation';
import { LatestValueSender } from '@/lib/popup/latest-value-sender';
import {
  initialFormState,
  reduceParameterForm,
  type ParameterFormAction,
  type ParameterFormState,
} from '@/lib/popup/parameter-form-state';
import { toolFailure, type FieldResult } from '@/lib/popup/parameter-outcome';
import { findEntry, targetListItems } from '@/lib/popup/target-list-items';
import type { TargetsListResult } from '@/lib/protocol/runtime-result-schemas';
import { callRuntime } from '../shared/call-runtime';
import { addUserTarget } from './add-user-target';
import { currentWindowId, isToolbarPopup, openChat } from './open-chat';
import { openTargetsPort } from './targets-port';
import { runAuthoredTargetAction } from './authored-target-action';
import type { AuthoredTargetAction } from '@/components/popup/authored-target-controls';
import { errorText } from '@/lib/protocol/error-text';

const SEND_INTERVAL_MS = 50;
const clock = {
  now: () => performance.now(),
  setTimer: (callback: () => void, delayMs: number) => setTimeout(callback, delayMs),
  clearTimer: (handle: unknown) => clearTimeout(handle as number),
};

type Sender = LatestValueSender<ParameterValue, unknown>;

function cancelSenders(senders: Map<string, Sender>): void {
  for (const sender of senders.values()) sender.cancel();
  senders.clear();
}

async function runTool(toolName: string, input: Record<string, ParameterValue> = {}): Promise<unknown> {
  const { output } = await callRuntime({ type: 'tool/manual', toolName, input });
  return output;
}

export function PopupApp() {
  const [list, setList] = useState<TargetsListResult>();
  const [form, setForm] = useState<ParameterFormState>();
  const [notice, setNotice] = useState<FieldResult>();
  const [opening, setOpening] = useState<string>();
  const [resetting, setResetting] = useState(false);
  const [adding, setAdding] = useState(false);
  const [addResult, setAddResult] = useState<FieldResult>();
  const windowIdRef = useRef<number | undefined>(undefined);
  const formTargetRef = useRef<string | undefined>(undefined);
  const sendersRef = useRef(new Map<string, Sender>());

  const dispatch = useCallback(
    (action: ParameterFormAction) => setForm((current) => current && reduceParameterForm(current, action)),
    [],
  );

  const refresh = useCallback(async () => {
    try {
      const result = await callRuntime({ type: 'targets/list' });
      setList(result);
      const entry = findEntry(result.catalog, result.activeTargetId);
      if (!entry) {
        formTargetRef.current = undefined;
        setForm(undefined);
      } else if (formTargetRef.current !== entry.manifest.id) {
        formTargetRef.current = entry.manifest.id;
        cancelSenders(sendersRef.current);
        setForm(initialFormState(entry.manifest.id, entry.manifest, result.values));
      } else if (result.values) {
        dispatch({ type: 'remote-state', targetId: entry.manifest.id, state: result.values });
      }
    } catch (error) {
      setNotice({ tone: 'error', message: `Could not load the targets: ${errorText(error)}` });
    }
  }, [dispatch]);

  useEffect(() => {
    // refresh sets state only once the runtime has answered, never synchronously inside the effect.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    void refresh();
    void currentWindowId().then((id) => (windowIdRef.current = id));
    return openTargetsPort(
      (message) => {
        if (message.targetId === formTargetRef.current)
          dispatch({ type: 'remote-state', targetId: message.targetId, state: message.state });
        else void refresh();
      },
      () => void refresh(),
    );
  }, [refresh, dispatch]);

  const senderFor = (param: string): Sender => {
    let sender = sendersRef.current.get(param);
    if (!sender) {
      sender = new LatestValueSender<ParameterValue, unknown>({
        send: (value) => runTool('setParameter', { param, value }),
        onSettled: (outcome) =>
          dispatch(
            outcome.ok
              ? { type: 'settled', param, output: outcome.result }
              : { type: 'send-failed', param, error: outcome.error },
          ),
        intervalMs: SEND_INTERVAL_MS,
        clock,
      });
      sendersRef.current.set(param, sender);
    }
    return sender;
  };

  const changeParameter = (param: string, value: ParameterValue) => {
    dispatch({ type: 'edit', param, value });
    senderFor(param).push(value);
  };

  const openTarget = async (targetId: string) => {
    setOpening(targetId);
    setNotice(undefined);
    try {
      const error = toolFailure(await runTool('openTarget', { targetId }));
      if (error) setNotice({ tone: 'error', message: error });
      await refresh();
    } catch (error) {
      setNotice({ tone: 'error', message: errorText(error) });
    } finally {
      setOpening(undefined);
    }
  };

  const reset = async () => {
    setResetting(true);
    cancelSenders(sendersRef.current);
    dispatch({ type: 'reset-started' });
    try {
      dispatch({ type: 'reset-done', output: await runTool('resetTarget') });
    } catch (error) {
      dispatch({ type: 'notice', notice: { tone: 'error', message: errorText(error) } });
    } finally {
      setResetting(false);
    }
  };

  const removeTarget = async (targetId: string) => {
    try {
      await callRuntime({ type: 'targets/unregister', targetId });
      await refresh();
    } catch (error) {
      setNotice({ tone: 'error', message: errorText(error) });
    }
  };

  const addTarget = (url: string) => {
    setAdding(true);
    setAddResult(undefined);
    addUserTarget(url)
      .then(
        async ({ title }) => {
          setAddResult({ tone: 'ok', message: `Added "${title}". Choose it in the list to open it.` });
          await refresh();
        },
        (error: unknown) => setAddResult({ tone: 'error', message: errorText(error) }),
      )
      .finally(() => setAdding(false));
  };

  const authoredAction = (action: AuthoredTargetAction) => {
    setNotice(undefined);
    runAuthoredTargetAction(action).then(
      () => refresh(),
      (error: unknown) => setNotice({ tone: 'error', message: errorText(error) }),
    );
  };

  const openChatPanel = () => {
    openChat(windowIdRef.current).then(
      () => {
        if (isToolbarPopup()) window.close();
      },
      (error: unknown) => setNotice({ tone: 'error', message: `Could not open the chat: ${errorText(error)}` }),
    );
  };

  return (
    <ToolbarPopup
      items={list && targetListItems(list.catalog, list.activeTargetId)}
      form={form}
      notice={notice}
      opening={opening}
      resetting={resetting}
      adding={adding}
      addResult={addResult}
      onOpenChat={openChatPanel}
      onOpenTarget={(targetId) => void openTarget(targetId)}
      onRemoveTarget={(targetId) => void removeTarget(targetId)}
      onChangeParameter={changeParameter}
      onReset={() => void reset()}
      onAddTarget={addTarget}
      onAuthoredAction={authoredAction}
    />
  );
}
