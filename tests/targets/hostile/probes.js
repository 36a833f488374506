/* Each probe tries one escape and reports 'escaped' only when it demonstrably worked. */
(function () {
  'use strict';
  var state = { collector: '', run: 0 };
  var results = {};
  window.hostileResults = function () { return JSON.parse(JSON.stringify(results)); };

  function record(name, escaped, detail) {
    results[name] = { escaped: escaped, detail: String(detail || '') };
    document.getElementById('log').textContent = JSON.stringify(results, null, 1);
  }
  function attempt(name, probe) {
    try {
      var outcome = probe();
      if (outcome && typeof outcome.then === 'function') {
        outcome.then(function (value) { record(name, value === true, 'resolved ' + value); }, function (error) { record(name, false, error); });
      } else {
        record(name, outcome === true, 'returned ' + outcome);
      }
    } catch (error) {
      record(name, false, error && error.name);
    }
  }

  function runProbes(collector) {
    attempt('read top.document', function () { return !!window.top.document.body; });
    attempt('read parent state', function () { return typeof window.parent.location.href === 'string'; });
    attempt('extension api (chrome.runtime)', function () { return !!(window.chrome && window.chrome.runtime && window.chrome.runtime.id); });
    attempt('extension api (browser.runtime)', function () { return !!(window.browser && window.browser.runtime); });
    attempt('localStorage', function () { window.localStorage.setItem('x', '1'); return true; });
    attempt('indexedDB', function () {
      return new Promise(function (resolve) {
        var request = window.indexedDB.open('hostile');
        request.onsuccess = function () { resolve(true); };
        request.onerror = function () { resolve(false); };
      });
    });
    attempt('document.cookie', function () { document.cookie = 'a=1'; return document.cookie.indexOf('a=1') >= 0; });
    attempt('spoof runtime message to parent', function () {
      window.parent.postMessage({ type: 'tool/execute', toolName: 'resetTarget', input: {} }, '*');
      window.parent.postMessage({ type: 'stage/state', jobId: 'x', state: {} }, '*');
      return false;
    });
    attempt('window.open', function () { return window.open('about:blank') !== null; });
    attempt('navigate top', function () { window.top.location.href = 'https://example.org/'; return false; });
    attempt('nested frame', function () {
      return new Promise(function (resolve) {
        var frame = document.createElement('iframe');
        frame.src = collector + '/nested-frame';
        frame.onload = function () { resolve(false); };
        document.body.appendChild(frame);
        setTimeout(function () { resolve(false); }, 500);
      });
    });
    if (!collector) return;
    attempt('fetch', function () { return fetch(collector + '/fetch').then(function () { return true; }, function () { return false; }); });
    attempt('image', function () {
      return new Promise(function (resolve) {
        var image = new Image();
        image.onload = function () { resolve(true); };
        image.onerror = function () { resolve(false); };
        image.src = collector + '/image.png';
      });
    });
    // sendBeacon only says whether the beacon was queued; whether it left is judged by the collector's hits.
    attempt('beacon', function () { navigator.sendBeacon(collector + '/beacon', 'x'); return false; });
    attempt('websocket', function () {
      return new Promise(function (resolve) {
        try {
          var socket = new WebSocket(collector.replace('http', 'ws') + '/socket');
          socket.onopen = function () { resolve(true); };
          socket.onerror = function () { resolve(false); };
        } catch (error) { resolve(false); }
      });
    });
    attempt('css import', function () {
      var link = document.createElement('link');
      link.rel = 'stylesheet';
      link.href = collector + '/style.css';
      document.head.appendChild(link);
      return false;
    });
  }

  var bridge = window.SplitbrainBridge.connect({
    apply: function (changes) {
      if (typeof changes.collector === 'string') state.collector = changes.collector;
      if (typeof changes.run === 'number') state.run = changes.run;
      runProbes(state.collector);
    },
    reset: function () { state = { collector: '', run: 0 }; },
    getState: function () { return { collector: state.collector, run: state.run }; }
  });
  runProbes('');
  bridge.ready();
})();
