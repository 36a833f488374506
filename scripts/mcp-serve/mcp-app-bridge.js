/*
 * The MCP Apps side of a Splitbrain target served by `npm run mcp:serve`: inlined before targets/bridge.js, it
 * defines window.SplitbrainBridge first (bridge.js then keeps it), with the same connect() the target's app.js
 * calls, but speaking the MCP Apps protocol (JSON-RPC 2.0 over postMessage) to the host instead of the stage wire:
 *   view → host  ui/initialize (request), ui/notifications/initialized, ui/notifications/size-changed
 *   host → view  ui/notifications/tool-result: the served tool's result; its structuredContent.values are the
 *                target's parameters after the call, applied to the app (set, reset and read alike)
 */
(function () {
  'use strict';

  var PROTOCOL_VERSION = '2026-01-26';
  var handlers = null;
  var controller = null;
  var isReady = false;
  var initialized = false;
  var pending = [];
  var nextId = 1;
  var debug = { received: [], applyCount: 0, resetCount: 0, ignored: 0, port: false };

  function isPlainObject(value) {
    if (value === null || typeof value !== 'object') return false;
    var proto = Object.getPrototypeOf(value);
    return proto === Object.prototype || proto === null;
  }

  function send(message) {
    if (window.parent === window) return;
    window.parent.postMessage(Object.assign({ jsonrpc: '2.0' }, message), '*');
  }

  function applyValues(values) {
    if (!isReady) return void pending.push(values);
    debug.applyCount++;
    try {
      var result = handlers.apply(values);
      if (result && typeof result.then === 'function') result.then(undefined, reportError);
    } catch (error) {
      reportError(error);
    }
  }

  function reportError(error) {
    send({
      method: 'notifications/message',
      params: { level: 'error', data: String((error && error.message) || error) },
    });
  }

  function onToolResult(params) {
    var values = params && isPlainObject(params.structuredContent) ? params.structuredContent.values : undefined;
    if (isPlainObject(values)) applyValues(values);
    else debug.ignored++;
  }

  function sizeChanged() {
    send({
      method: 'ui/notifications/size-changed',
      params: { width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight },
    });
  }

  window.addEventListener('message', function (event) {
    if (event.source !== window.parent || window.parent === window) return void debug.ignored++;
    var data = event.data;
    if (!isPlainObject(data) || data.jsonrpc !== '2.0') return void debug.ignored++;
    if (data.id === 1 && (isPlainObject(data.result) || data.error)) {
      initialized = true;
      send({ method: 'ui/notifications/initialized', params: {} });
      sizeChanged();
      return;
    }
    if (data.method === 'ui/notifications/tool-result') return onToolResult(data.params);
    if (typeof data.method === 'string') debug.received.push(data.method);
  });

  window.addEventListener('resize', function () {
    if (initialized) sizeChanged();
  });

  function connect(newHandlers) {
    if (controller) throw new Error('SplitbrainBridge.connect() may only be called once');
    handlers = newHandlers;
    controller = {
      ready: function () {
        if (isReady) return;
        isReady = true;
        send({
          id: nextId++,
          method: 'ui/initialize',
          params: {
            protocolVersion: PROTOCOL_VERSION,
            appInfo: { name: document.title || 'Splitbrain target', version: '1.0.0' },
            appCapabilities: {},
          },
        });
        var waiting = pending;
        pending = [];
        waiting.forEach(applyValues);
      },
      reportState: function () {},
      reportError: reportError,
    };
    return controller;
  }

  window.SplitbrainBridge = Object.freeze({
    connect: connect,
    debug: debug,
    isReady: function () {
      return isReady;
    },
    currentState: function () {
      return handlers ? handlers.getState() : null;
    },
    guard: function (callback) {
      return callback;
    },
    unwrap: function (value) {
      return value;
    },
  });
})();
