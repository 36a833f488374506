/* Fails on request, so tests can see that a target's exceptions reach the tool result and the panel. */
(function () {
  'use strict';

  var params = window.SplitbrainParams.fromManifest();
  var state = params.defaults();
  var view = document.getElementById('view');
  var failedOnce = false;

  function render() {
    view.textContent = 'level ' + state.level + '%, fault ' + state.fault;
  }

  var bridge = window.SplitbrainBridge.connect({
    apply: function (changes) {
      var next = params.merge(state, changes);
      if (next.fault === 'throw-in-apply') throw new Error('The faulty target refuses fault=throw-in-apply');
      if (next.fault === 'fail-once' && !failedOnce) {
        failedOnce = true;
        throw new Error('The faulty target was not ready (fail-once)');
      }
      state = next;
      render();
      if (state.fault === 'crash-after-apply') {
        queueMicrotask(function () {
          throw new TypeError('The faulty target crashed while drawing level ' + state.level);
        });
      }
    },
    reset: function () {
      state = params.defaults();
      render();
    },
    getState: function () {
      return params.copy(state);
    },
  });
  render();
  bridge.ready();
})();
