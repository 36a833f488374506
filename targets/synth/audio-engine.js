/* Step synthesizer target: the Web Audio graph, the voices and the look-ahead step scheduler. */
(function (modules) {
  'use strict';

  var midiFrequency = modules.music.midiFrequency;
  var stepMidi = modules.music.stepMidi;
  var stepSeconds = modules.music.stepSeconds;
  var dbToGain = modules.music.dbToGain;

  var WAVE_GAIN = { sine: 0.5, triangle: 0.45, square: 0.2, sawtooth: 0.24 };
  var LOOKAHEAD = 0.12; // seconds scheduled ahead
  var TICK_MS = 25;
  var ECHO_FEEDBACK = 0.38;

  // readState returns the app's current parameters; the app replaces that object on every change.
  function create(readState) {
    var audio = null; // {context, filter, master, echoSend, echo, feedback, compressor, analyser}
    var scheduler = null;
    var nextStep = 0;
    var nextStepTime = 0;
    var scheduled = []; // {step, time} to move the highlight when the note is heard
    var visualStep = -1;
    var voicesStarted = 0;
    var timeData = null;
    var freqData = null;

    function createAudio() {
      var AudioContextClass = window.AudioContext || window.webkitAudioContext;
      if (!AudioContextClass) throw new Error('Web Audio is not available in this browser');
      var ctx = new AudioContextClass();
      var filter = ctx.createBiquadFilter();
      filter.type = 'lowpass';
      var master = ctx.createGain();
      var echoSend = ctx.createGain();
      var echo = ctx.createDelay(2);
      var feedback = ctx.createGain();
      var echoTone = ctx.createBiquadFilter();
      echoTone.type = 'lowpass';
      echoTone.frequency.value = 3200;
      var compressor = ctx.createDynamicsCompressor();
      compressor.threshold.value = -10;
      compressor.ratio.value = 4;
      var analyser = ctx.createAnalyser();
      analyser.fftSize = 2048;
      analyser.smoothingTimeConstant = 0.78;
      filter.connect(master);
      filter.connect(echoSend);
      echoSend.connect(echo);
      echo.connect(echoTone);
      echoTone.connect(feedback);
      feedback.connect(echo);
      echoTone.connect(master);
      master.connect(compressor);
      compressor.connect(analyser);
      analyser.connect(ctx.destination);
      feedback.gain.value = ECHO_FEEDBACK;
      audio = { context: ctx, filter: filter, master: master, echoSend: echoSend, echo: echo, analyser: analyser };
      timeData = new Float32Array(analyser.fftSize);
      freqData = new Uint8Array(analyser.frequencyBinCount);
      updateAudioParameters(true);
    }

    function updateAudioParameters(immediate) {
      if (!audio) return;
      var state = readState();
      var now = audio.context.currentTime;
      function set(param, value) {
        if (immediate) param.setValueAtTime(value, now);
        else param.setTargetAtTime(value, now, 0.03);
      }
      set(audio.filter.frequency, state.filter_cutoff);
      set(audio.filter.Q, state.filter_resonance);
      set(audio.master.gain, dbToGain(state.volume));
      set(audio.echoSend.gain, state.echo_mix * 0.8);
      set(audio.echo.delayTime, Math.min(2, stepSeconds(state) * 3));
    }

    function playVoice(step, time, velocity) {
      var state = readState();
      var ctx = audio.context;
      var oscillator = ctx.createOscillator();
      var envelope = ctx.createGain();
      oscillator.type = state.waveform;
      oscillator.frequency.setValueAtTime(midiFrequency(stepMidi(state, step)), time);
      var peak = (WAVE_GAIN[state.waveform] || 0.3) * velocity;
      var attack = state.attack / 1000;
      var release = state.release / 1000;
      var gateEnd = time + Math.max(stepSeconds(state) * 0.6, attack);
      envelope.gain.setValueAtTime(0, time);
      envelope.gain.linearRampToValueAtTime(peak, time + attack);
      envelope.gain.setValueAtTime(peak, gateEnd);
      envelope.gain.setTargetAtTime(0, gateEnd, release / 4);
      oscillator.connect(envelope);
      envelope.connect(audio.filter);
      oscillator.start(time);
      oscillator.stop(gateEnd + release * 1.5 + 0.05);
      oscillator.onended = function () {
        envelope.disconnect();
      };
      voicesStarted++;
    }

    function tick() {
      var state = readState();
      if (!audio || !state.playing) return;
      var now = audio.context.currentTime;
      if (nextStepTime < now - 0.2) nextStepTime = now + 0.03; // fell behind (hidden tab): re-sync
      while (nextStepTime < now + LOOKAHEAD) {
        var velocity = state.pattern[nextStep];
        if (velocity > 0) playVoice(nextStep, nextStepTime, velocity);
        scheduled.push({ step: nextStep, time: nextStepTime });
        nextStepTime += stepSeconds(state);
        nextStep = (nextStep + 1) % 16;
      }
    }

    function startScheduler() {
      if (!audio || scheduler !== null) return;
      nextStep = 0;
      nextStepTime = audio.context.currentTime + 0.05;
      scheduled = [];
      scheduler = window.setInterval(tick, TICK_MS);
      tick();
    }

    function stopScheduler() {
      if (scheduler !== null) window.clearInterval(scheduler);
      scheduler = null;
      scheduled = [];
      visualStep = -1;
    }

    // Moves the highlighted step to the last scheduled note the listener has heard by now.
    function advanceVisualStep() {
      if (audio) {
        while (scheduled.length && scheduled[0].time <= audio.context.currentTime) visualStep = scheduled.shift().step;
      }
      return visualStep;
    }

    return {
      audio: function () {
        return audio;
      },
      ensureAudio: function () {
        if (!audio) createAudio();
        return audio;
      },
      updateParameters: updateAudioParameters,
      startScheduler: startScheduler,
      stopScheduler: stopScheduler,
      advanceVisualStep: advanceVisualStep,
      voicesStarted: function () {
        return voicesStarted;
      },
      readWaveform: function () {
        audio.analyser.getFloatTimeDomainData(timeData);
        return timeData;
      },
      readSpectrum: function () {
        audio.analyser.getByteFrequencyData(freqData);
        return freqData;
      },
    };
  }

  modules.audioEngine = { create: create };
})((window.SynthModules = window.SynthModules || {}));
