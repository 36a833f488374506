(function () {
  'use strict';
  var state = { count: 1, label: 'hello' };
  var view = document.getElementById('view');
  function render() {
    view.textContent = state.label + ': ' + state.count;
  }
  window.slowCounterState = function () {
    return { count: state.count, label: state.label };
  };
  var bridge = window.SplitbrainBridge.connect({
    apply: function (changes) {
      if ('count' in changes) state.count = changes.count;
      if ('label' in changes) state.label = changes.label;
      render();
    },
    reset: function () {
      state = { count: 1, label: 'hello' };
      render();
    },
    getState: function () {
      return { count: state.count, label: state.label };
    },
  });
  // Ready only when the test says so: a command sent before then stays received and unanswered, however long
  // anything else takes.
  window.releaseHeldCounter = function () {
    render();
    bridge.ready();
  };
})();
