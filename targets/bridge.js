/*
 * Splitbrain target bridge — the one script every target includes before its own app script:
 *   <script src="../bridge.js"></script>
 *
 * Plain browser JavaScript, no modules, no network. Defines window.SplitbrainBridge.
 * Wire (see targets/WRITING-A-TARGET.md):
 *   stage → target  {source:'splitbrain:stage', type:'apply', id, payload:{name: value}}
 *                   {source:'splitbrain:stage', type:'reset', id}
 *                   {source:'splitbrain:stage', type:'read',  id}
 *                   {source:'splitbrain:stage', type:'port'}  + one transferred MessagePort, right after
 *                   ready; from then on commands and replies travel over that port only
 *   target → stage  {source:'splitbrain:target', type:'ready', state}
 *                   {source:'splitbrain:target', type:'state', id?, payload}
 *                   {source:'splitbrain:target', type:'error', id?, message}
 */
(function () {
  'use strict';

  if (window.SplitbrainBridge) return; // included twice: keep the first instance and its listener

  var STAGE = 'splitbrain:stage';
  var TARGET = 'splitbrain:target';
  var COMMANDS = { apply: true, reset: true, read: true };
  var MAX_UNWRAP = 64;
  var ERROR_REPEAT_MS = 1000;

  var debug = { received: [], applyCount: 0, resetCount: 0, ignored: 0, port: false };
  var handlers = null;
  var controller = null;
  var isReady = false;
  var busy = false; // an async handler is still running; later commands wait for it
  var queue = []; // {message, reply} in arrival order, drained once ready
  var port = null;
  var lastError = { message: null, time: 0 };

  function isPlainObject(value) {
    if (value === null || typeof value !== 'object') return false;
    var proto = Object.getPrototypeOf(value);
    return proto === Object.prototype || proto === null;
  }

  function isCommand(data) {
    if (!isPlainObject(data) || data.source !== STAGE) return false;
    if (!Object.prototype.hasOwnProperty.call(COMMANDS, data.type)) return false;
    if (typeof data.id !== 'string') return false;
    return data.type !== 'apply' || isPlainObject(data.payload);
  }

  function unwrap(value) {
    var current = value;
    for (var i = 0; i < MAX_UNWRAP; i++) {
      if (!isPlainObject(current)) return current;
      var keys = Object.keys(current);
      if (keys.length !== 1 || keys[0] !== 'value' || current.value === current) return current;
      current = current.value;
    }
    return current;
  }

  function unwrapChanges(payload) {
    var changes = {};
    Object.keys(payload).forEach(function (name) {
      if (name === '__proto__') return;
      changes[name] = unwrap(payload[name]);
    });
    return changes;
  }

  // Structured-clone safe plain JSON: finite numbers, booleans, strings, arrays, plain objects.
  function toPlain(value, depth) {
    if (depth > 16) return null;
    if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
    if (typeof value === 'number') return isFinite(value) ? value : null;
    if (typeof value === 'bigint') return Number(value);
    if (Array.isArray(value) || ArrayBuffer.isView(value)) {
      return Array.prototype.map.call(value, function (item) {
        return toPlain(item, depth + 1);
      });
    }
    if (typeof value === 'object') {
      var out = {};
      Object.keys(value).forEach(function (key) {
        var item = value[key];
        if (item === undefined || typeof item === 'function' || typeof item === 'symbol') return;
        out[key] = toPlain(item, depth + 1);
      });
      return out;
    }
    return null; // undefined, function, symbol
  }

  function errorText(error) {
    if (error && typeof error === 'object' && error.message) return String(error.message);
    try {
      return String(error);
    } catch (ignored) {
      return 'Unknown error';
    }
  }

  function postRaw(message, viaPort) {
    if (viaPort) {
      viaPort.postMessage(message);
      return;
    }
    if (window.parent === window) return; // opened on its own, nobody to tell
    window.parent.postMessage(message, '*');
  }

  function post(message, viaPort) {
    try {
      postRaw(message, viaPort);
    } catch (error) {
      var failure = {
        source: TARGET,
        type: 'error',
        message: 'Could not post ' + message.type + ': ' + errorText(error),
      };
      if (message.id !== undefined) failure.id = message.id;
      try {
        postRaw(failure, viaPort);
      } catch (ignored) {
        /* the channel itself is gone */
      }
    }
  }

  function currentState() {
    return toPlain(handlers.getState(), 0);
  }

  function postState(id, viaPort) {
    var message = { source: TARGET, type: 'state', payload: currentState() };
    if (id !== undefined) message.id = id;
    post(message, viaPort);
  }

  function postError(id, error, viaPort) {
    var message = { source: TARGET, type: 'error', message: errorText(error) };
    if (id !== undefined) message.id = id;
    post(message, viaPort);
  }

  function runHandler(message) {
    if (message.type === 'apply') {
      var changes = unwrapChanges(message.payload);
      debug.applyCount++;
      return handlers.apply(changes);
    }
    if (message.type === 'reset') {
      debug.resetCount++;
      return handlers.reset();
    }
    return undefined; // read: the state reply is the answer
  }

  function finish(entry, error) {
    var id = entry.message.id;
    if (error !== undefined) {
      postError(id, error, entry.reply);
      return;
    }
    try {
      postState(id, entry.reply);
    } catch (stateError) {
      postError(id, stateError, entry.reply);
    }
  }

  function dispatch(entry) {
    debug.received.push(entry.message.id);
    var result;
    try {
      result = runHandler(entry.message);
    } catch (error) {
      finish(entry, error === undefined ? 'Handler failed' : error);
      return;
    }
    if (result && typeof result.then === 'function') {
      busy = true;
      var done = function () {
        busy = false;
        drain();
      };
      Promise.resolve(result)
        .then(
          function () {
            finish(entry);
          },
          function (error) {
            finish(entry, error === undefined ? 'Handler failed' : error);
          },
        )
        .then(done, done);
      return;
    }
    finish(entry);
  }

  function drain() {
    while (isReady && !busy && queue.length > 0) dispatch(queue.shift());
  }

  function accept(data, reply) {
    if (!isCommand(data)) {
      debug.ignored++;
      return;
    }
    queue.push({ message: { type: data.type, id: data.id, payload: data.payload }, reply: reply });
    drain();
  }

  function adoptPort(newPort) {
    port = newPort;
    debug.port = true;
    newPort.onmessage = function (event) {
      try {
        accept(event.data, newPort);
      } catch (ignored) {
        /* never throw from the listener */
      }
    };
  }

  window.addEventListener('message', function (event) {
    try {
      if (event.source !== window.parent || window.parent === window) {
        debug.ignored++;
        return;
      }
      var data = event.data;
      if (port) {
        debug.ignored++; // after the handover everything comes over the port
        return;
      }
      if (isPlainObject(data) && data.source === STAGE && data.type === 'port') {
        if (isReady && event.ports && event.ports.length === 1) adoptPort(event.ports[0]);
        else debug.ignored++;
        return;
      }
      accept(data, null);
    } catch (ignored) {
      /* never throw from the listener */
    }
  });

  function reportUncaught(message) {
    var now = Date.now();
    if (message === lastError.message && now - lastError.time < ERROR_REPEAT_MS) return;
    lastError = { message: message, time: now };
    post({ source: TARGET, type: 'error', message: message }, port);
  }

  // A sandboxed frame has an opaque origin, so every script it loads counts as cross-origin:
  // the browser reduces uncaught errors to "Script error." and fires no unhandledrejection for
  // them. Callbacks run through the wrapped timers below report the real message first.
  var MUTED = 'Script error.';
  var wrappedErrorTime = 0;

  window.addEventListener('error', function (event) {
    if (!event.error && (!event.message || event.message === MUTED)) {
      if (Date.now() - wrappedErrorTime < 100) return; // already reported with its real message
      reportUncaught(MUTED + ' (details hidden by the browser: target scripts are cross-origin to a sandboxed frame)');
      return;
    }
    reportUncaught(event.error ? errorText(event.error) : event.message);
  });

  window.addEventListener('unhandledrejection', function (event) {
    reportUncaught('Unhandled rejection: ' + errorText(event.reason));
  });

  function guard(callback) {
    if (typeof callback !== 'function') return callback;
    return function () {
      try {
        return callback.apply(this, arguments);
      } catch (error) {
        reportUncaught(errorText(error));
        wrappedErrorTime = Date.now();
        throw error; // keep the browser's own "Uncaught" console entry
      }
    };
  }

  ['requestAnimationFrame', 'setTimeout', 'setInterval', 'queueMicrotask'].forEach(function (name) {
    var original = window[name];
    if (typeof original !== 'function') return;
    window[name] = function (callback) {
      var args = Array.prototype.slice.call(arguments);
      args[0] = guard(callback);
      return original.apply(window, args);
    };
  });

  function requireFunction(value, name) {
    if (typeof value !== 'function') {
      throw new TypeError('SplitbrainBridge.connect: handlers.' + name + ' must be a function');
    }
  }

  function connect(newHandlers) {
    if (controller) throw new Error('SplitbrainBridge.connect() may only be called once');
    if (!newHandlers || typeof newHandlers !== 'object') {
      throw new TypeError('SplitbrainBridge.connect: expected { apply, reset, getState }');
    }
    requireFunction(newHandlers.apply, 'apply');
    requireFunction(newHandlers.reset, 'reset');
    requireFunction(newHandlers.getState, 'getState');
    handlers = newHandlers;
    controller = {
      ready: function () {
        if (isReady) return;
        isReady = true;
        var state;
        try {
          state = currentState();
        } catch (error) {
          state = null;
          postError(undefined, error, null);
        }
        post({ source: TARGET, type: 'ready', state: state }, null); // the handshake is always by window
        drain();
      },
      reportState: function () {
        if (!isReady) return; // the ready message carries the state
        try {
          postState(undefined, port);
        } catch (error) {
          postError(undefined, error, port);
        }
      },
      reportError: function (message) {
        post({ source: TARGET, type: 'error', message: errorText(message) }, port);
      },
    };
    return controller;
  }

  window.SplitbrainBridge = Object.freeze({
    connect: connect,
    debug: debug,
    isReady: function () {
      return isReady;
    },
    // The values the target has in effect now, as it would report them (for tests and debugging).
    currentState: function () {
      return handlers ? toPlain(handlers.getState(), 0) : null;
    },
    guard: guard, // wrap your own event listeners so their errors keep their message
    unwrap: unwrap,
  });
})();
