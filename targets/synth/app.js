/*
 * Step synthesizer target (Web Audio). Sixteen steps loop at the tempo; each sounding step starts
 * an oscillator voice with an attack/release envelope → shared resonant low-pass filter → master
 * volume (+ tempo-synced echo) → compressor → analyser → speakers.
 *
 * Sound needs the user: the AudioContext is only created inside the click handler of the Start
 * button. Until then `playing` stays false whatever the model applies, and the status says so.
 * Parameter specs and defaults come from manifest.json through ../params.js.
 */
(function () {
  'use strict';

  var params = window.SplitbrainParams.fromManifest();
  var modules = window.SynthModules;
  var round = modules.paint.round;

  var state = params.defaults();
  var playRequested = false; // the model asked to play before the user allowed sound
  var unlocked = false;
  var engine = modules.audioEngine.create(function () {
    return state;
  });

  var canvas = document.getElementById('synth');
  var statusPill = document.getElementById('status');
  var transport = document.getElementById('transport');
  var gate = document.getElementById('gate');
  var gateNote = document.getElementById('gate-note');
  var startButton = document.getElementById('start');
  var visualizer = modules.visualizer.create(canvas, {
    state: function () {
      return state;
    },
    unlocked: function () {
      return unlocked;
    },
    engine: engine,
  });

  var bridge = window.SplitbrainBridge.connect({ apply: apply, reset: reset, getState: getState });

  // Read-only diagnostics for tests: whether sound is possible and how many notes have started.
  window.SynthTarget = Object.freeze({
    audioState: function () {
      return engine.audio() ? engine.audio().context.state : 'none';
    },
    unlocked: function () {
      return unlocked;
    },
    voicesStarted: function () {
      return engine.voicesStarted();
    },
  });

  // ---- parameters -------------------------------------------------------------------------

  function getState() {
    return params.copy(state);
  }

  // All-or-nothing: one bad value leaves every parameter as it was.
  function apply(changes) {
    var next = params.merge(state, changes);
    if (Object.prototype.hasOwnProperty.call(changes, 'playing')) {
      playRequested = next.playing && !unlocked;
      if (!unlocked) next.playing = false; // no sound before the user pressed Start
    }
    commit(next);
  }

  function reset() {
    playRequested = false;
    commit(params.defaults());
  }

  function commit(next) {
    var wasPlaying = state.playing;
    state = next;
    engine.updateParameters();
    if (state.playing && !wasPlaying) engine.startScheduler();
    if (!state.playing && wasPlaying) engine.stopScheduler();
    updateStatus();
  }

  // ---- sound ------------------------------------------------------------------------------

  function unlock() {
    try {
      var audio = engine.ensureAudio();
    } catch (error) {
      showGateError('Sound is not available: ' + (error && error.message ? error.message : error));
      return;
    }
    var resumed = audio.context.state === 'running' ? Promise.resolve() : audio.context.resume();
    Promise.resolve(resumed).then(
      function () {
        if (audio.context.state !== 'running') {
          showGateError('The browser kept sound blocked. Click Start sound again.');
          return;
        }
        unlocked = true;
        playRequested = false;
        gate.hidden = true;
        transport.hidden = false;
        var next = params.copy(state);
        next.playing = true;
        commit(next);
        bridge.reportState();
      },
      function (error) {
        showGateError('The browser blocked sound: ' + (error && error.message ? error.message : error));
      },
    );
  }

  function showGateError(message) {
    gateNote.textContent = message;
    statusPill.textContent = 'sound blocked';
    statusPill.className = 'pill error';
  }

  function toggleTransport() {
    if (!unlocked) return;
    var next = params.copy(state);
    next.playing = !state.playing;
    commit(next);
    bridge.reportState();
  }

  // ---- status -------------------------------------------------------------------------------

  function updateStatus() {
    if (!unlocked) {
      statusPill.textContent = playRequested
        ? 'press Start to allow sound (play was requested)'
        : 'press Start to allow sound';
      statusPill.className = 'pill locked' + (playRequested ? ' requested' : '');
      startButton.className = 'start' + (playRequested ? ' requested' : '');
      return;
    }
    statusPill.textContent = state.playing ? 'playing · ' + round(state.tempo) + ' BPM' : 'stopped';
    statusPill.className = 'pill ' + (state.playing ? 'playing' : 'stopped');
    transport.textContent = state.playing ? 'Stop' : 'Play';
  }

  // ---- start-up -----------------------------------------------------------------------------

  function init() {
    visualizer.resize();
    window.addEventListener('resize', window.SplitbrainBridge.guard(visualizer.resize));
    startButton.addEventListener('click', window.SplitbrainBridge.guard(unlock));
    transport.addEventListener('click', window.SplitbrainBridge.guard(toggleTransport));
    updateStatus();
    visualizer.draw(0);
    window.requestAnimationFrame(visualizer.frame);
    bridge.ready();
  }

  try {
    init();
  } catch (error) {
    bridge.reportError('Synth failed to start: ' + (error && error.message ? error.message : error));
  }
})();
