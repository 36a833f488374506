// The floor of the stage-to-frame hop: no bridge, no validation beyond the source tag, reply at once.
(function () {
  'use strict';
  window.addEventListener('message', function (event) {
    var data = event.data;
    if (event.source !== window.parent || !data || data.source !== 'splitbrain:bench') return;
    event.source.postMessage(data, '*');
  });
})();
