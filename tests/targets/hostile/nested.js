/* Runs inside a nested frame of the hostile target: posts as that frame, which the stage must ignore. */
(function () {
  'use strict';
  var forgedState = {
    source: 'splitbrain:target',
    type: 'state',
    payload: { collector: 'forged-by-nested-frame', run: 998 },
  };
  var forgedReady = {
    source: 'splitbrain:target',
    type: 'ready',
    state: { collector: 'forged-by-nested-frame', run: 998 },
  };
  var posted = 0;
  [window.top, window.parent.parent].forEach(function (destination) {
    destination.postMessage(forgedState, '*');
    destination.postMessage(forgedReady, '*');
    posted += 2;
  });
  var readTop = false;
  try {
    readTop = !!window.top.document.body;
  } catch (error) {
    readTop = false;
  }
  window.parent.hostileNestedReport({ posted: posted, readTop: readTop });
})();
