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
  var rootMidi = modules.music.rootMidi;
  var stepMidi = modules.music.stepMidi;
  var midiName = modules.music.midiName;
  var midiFrequency = modules.music.midiFrequency;
  var stepSeconds = modules.music.stepSeconds;
  var dbToGain = modules.music.dbToGain;

  var WAVE_GAIN = { sine: 0.5, triangle: 0.45, square: 0.2, sawtooth: 0.24 };
  var LOOKAHEAD = 0.12; // seconds scheduled ahead
  var TICK_MS = 25;
  var ECHO_FEEDBACK = 0.38;

  var state = params.defaults();
  var playRequested = false; // the model asked to play before the user allowed sound

  var audio = null; // {context, filter, master, echoSend, echo, feedback, compressor, analyser}
  var unlocked = false;
  var scheduler = null;
  var nextStep = 0;
  var nextStepTime = 0;
  var scheduled = []; // {step, time} to move the highlight when the note is heard
  var visualStep = -1;
  var voicesStarted = 0;

  var canvas = document.getElementById('synth');
  var context = canvas.getContext('2d');
  var statusPill = document.getElementById('status');
  var transport = document.getElementById('transport');
  var gate = document.getElementById('gate');
  var gateNote = document.getElementById('gate-note');
  var startButton = document.getElementById('start');
  var view = { width: 1, height: 1, ratio: 1 };
  var timeData = null;
  var freqData = null;
  var scopeGain = 2;

  var bridge = window.SplitbrainBridge.connect({ apply: apply, reset: reset, getState: getState });

  // Read-only diagnostics for tests: whether sound is possible and how many notes have started.
  window.SynthTarget = Object.freeze({
    audioState: function () {
      return audio ? audio.context.state : 'none';
    },
    unlocked: function () {
      return unlocked;
    },
    voicesStarted: function () {
      return voicesStarted;
    },
  });

  // ---- parameters -------------------------------------------------------------------------

  function getState() {
    return params.copy(state);
  }

  function clamp(value, min, max) {
    return Math.min(max, Math.max(min, value));
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
    updateAudioParameters();
    if (state.playing && !wasPlaying) startScheduler();
    if (!state.playing && wasPlaying) stopScheduler();
    updateStatus();
  }

  // ---- music ------------------------------------------------------------------------------

  // ---- audio ------------------------------------------------------------------------------

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

  function unlock() {
    try {
      if (!audio) createAudio();
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

  function round(value) {
    return String(Math.round(value * 10) / 10);
  }

  // ---- drawing ------------------------------------------------------------------------------

  var CYAN = '#22d3ee';
  var VIOLET = '#a78bfa';
  var PINK = '#f472b6';
  var FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans", sans-serif';

  function resize() {
    var ratio = Math.min(window.devicePixelRatio || 1, 2);
    view.ratio = ratio;
    view.width = Math.max(1, window.innerWidth);
    view.height = Math.max(1, window.innerHeight);
    canvas.width = Math.floor(view.width * ratio);
    canvas.height = Math.floor(view.height * ratio);
  }

  function font(weight, size) {
    return weight + ' ' + size + 'px ' + FONT;
  }

  function roundRect(x, y, w, h, r) {
    var radius = Math.max(0, Math.min(r, w / 2, h / 2));
    context.beginPath();
    context.moveTo(x + radius, y);
    context.arcTo(x + w, y, x + w, y + h, radius);
    context.arcTo(x + w, y + h, x, y + h, radius);
    context.arcTo(x, y + h, x, y, radius);
    context.arcTo(x, y, x + w, y, radius);
    context.closePath();
  }

  function panel(x, y, w, h, label) {
    roundRect(x, y, w, h, 14);
    var gradient = context.createLinearGradient(0, y, 0, y + h);
    gradient.addColorStop(0, 'rgba(30, 38, 66, 0.72)');
    gradient.addColorStop(1, 'rgba(17, 22, 40, 0.72)');
    context.fillStyle = gradient;
    context.fill();
    context.strokeStyle = 'rgba(150, 170, 230, 0.14)';
    context.lineWidth = 1;
    context.stroke();
    if (label) {
      context.font = font(700, 10.5);
      context.fillStyle = 'rgba(180, 195, 235, 0.6)';
      context.textAlign = 'left';
      context.textBaseline = 'top';
      context.fillText(label.toUpperCase(), x + 14, y + 12);
    }
  }

  // One period of the selected waveform, for the silent preview.
  function waveSample(phase) {
    var p = phase - Math.floor(phase);
    switch (state.waveform) {
      case 'square':
        return p < 0.5 ? 0.8 : -0.8;
      case 'sawtooth':
        return 0.85 * (2 * p - 1);
      case 'triangle':
        return 0.85 * (1 - 4 * Math.abs(p - 0.5));
      default:
        return 0.85 * Math.sin(p * Math.PI * 2);
    }
  }

  function drawScope(x, y, w, h, time) {
    panel(x, y, w, h, audio && unlocked ? 'Oscilloscope' : 'Oscilloscope · preview (silent)');
    var mid = y + h / 2 + 8;
    var amp = (h - 56) / 2;
    context.save();
    roundRect(x, y, w, h, 14);
    context.clip();
    context.strokeStyle = 'rgba(150, 170, 230, 0.08)';
    context.lineWidth = 1;
    for (var gx = 1; gx < 8; gx++) {
      context.beginPath();
      context.moveTo(x + (w * gx) / 8, y + 32);
      context.lineTo(x + (w * gx) / 8, y + h - 12);
      context.stroke();
    }
    context.beginPath();
    context.moveTo(x + 12, mid);
    context.lineTo(x + w - 12, mid);
    context.strokeStyle = 'rgba(150, 170, 230, 0.16)';
    context.stroke();

    var points = [];
    var live = audio && unlocked && state.playing;
    if (audio && unlocked) {
      audio.analyser.getFloatTimeDomainData(timeData);
      // trigger on a rising zero crossing so the trace stands still
      var start = 0;
      for (var i = 1; i < timeData.length / 2; i++) {
        if (timeData[i - 1] < 0 && timeData[i] >= 0) {
          start = i;
          break;
        }
      }
      var span = Math.min(timeData.length - start, 900);
      var peak = 0;
      for (i = 0; i < span; i++) peak = Math.max(peak, Math.abs(timeData[start + i]));
      // gentle auto-gain so quiet settings still show a readable trace
      var target = peak > 0.002 ? Math.min(12, 0.85 / peak) : scopeGain;
      scopeGain += (target - scopeGain) * 0.15;
      for (i = 0; i < span; i++)
        points.push([x + 16 + ((w - 32) * i) / (span - 1), mid - clamp(timeData[start + i] * scopeGain, -1, 1) * amp]);
    } else {
      var cycles = 3;
      var breathe = 0.75 + 0.12 * Math.sin(time / 700);
      for (i = 0; i <= 400; i++) {
        var t = i / 400;
        points.push([x + 16 + (w - 32) * t, mid - waveSample(t * cycles) * amp * breathe * softFilter()]);
      }
    }
    context.lineJoin = 'round';
    [
      [10, 0.12],
      [4, 0.3],
      [1.6, 1],
    ].forEach(function (pass) {
      context.beginPath();
      points.forEach(function (p, k) {
        if (k === 0) context.moveTo(p[0], p[1]);
        else context.lineTo(p[0], p[1]);
      });
      context.strokeStyle =
        live || !(audio && unlocked)
          ? 'rgba(34, 211, 238,' + pass[1] + ')'
          : 'rgba(150, 170, 230,' + pass[1] * 0.6 + ')';
      context.lineWidth = pass[0];
      context.stroke();
    });
    context.restore();
  }

  // A darker filter (low cutoff) shrinks the preview a little, so the preview reacts to it.
  function softFilter() {
    return 0.55 + 0.45 * clamp(Math.log(state.filter_cutoff / 40) / Math.log(18000 / 40), 0, 1);
  }

  // Magnitude (dB) of the RBJ biquad low-pass at frequency f.
  function lowpassDb(f, cutoff, q, sampleRate) {
    var w0 = (2 * Math.PI * Math.min(cutoff, sampleRate / 2 - 1)) / sampleRate;
    var alpha = Math.sin(w0) / (2 * q);
    var cos = Math.cos(w0);
    var b0 = (1 - cos) / 2,
      b1 = 1 - cos,
      b2 = (1 - cos) / 2;
    var a0 = 1 + alpha,
      a1 = -2 * cos,
      a2 = 1 - alpha;
    var w = (2 * Math.PI * f) / sampleRate;
    var c1 = Math.cos(w),
      s1 = Math.sin(w),
      c2 = Math.cos(2 * w),
      s2 = Math.sin(2 * w);
    var nr = b0 + b1 * c1 + b2 * c2,
      ni = -(b1 * s1 + b2 * s2);
    var dr = a0 + a1 * c1 + a2 * c2,
      di = -(a1 * s1 + a2 * s2);
    var magnitude = Math.sqrt((nr * nr + ni * ni) / (dr * dr + di * di));
    return 20 * Math.log10(Math.max(magnitude, 1e-6));
  }

  function drawSpectrum(x, y, w, h) {
    panel(x, y, w, h, 'Spectrum · low-pass filter');
    var left = x + 16,
      right = x + w - 16,
      top = y + 36,
      bottom = y + h - 30;
    var fMin = 30,
      fMax = 20000;
    function fx(f) {
      return left + ((Math.log(f) - Math.log(fMin)) / (Math.log(fMax) - Math.log(fMin))) * (right - left);
    }
    context.font = font(500, 10);
    context.fillStyle = 'rgba(180, 195, 235, 0.5)';
    context.textAlign = 'center';
    context.textBaseline = 'top';
    [50, 100, 200, 500, 1000, 2000, 5000, 10000].forEach(function (f) {
      var gx = fx(f);
      context.beginPath();
      context.moveTo(gx, top);
      context.lineTo(gx, bottom);
      context.strokeStyle = 'rgba(150, 170, 230, 0.08)';
      context.lineWidth = 1;
      context.stroke();
      context.fillText(f >= 1000 ? f / 1000 + 'k' : String(f), gx, bottom + 8);
    });
    var sampleRate = audio ? audio.context.sampleRate : 48000;

    if (audio && unlocked) {
      audio.analyser.getByteFrequencyData(freqData);
      var bars = 72;
      var barWidth = (right - left) / bars;
      for (var b = 0; b < bars; b++) {
        var f0 = fMin * Math.pow(fMax / fMin, b / bars);
        var f1 = fMin * Math.pow(fMax / fMin, (b + 1) / bars);
        var i0 = Math.floor((f0 / (sampleRate / 2)) * freqData.length);
        var i1 = Math.max(i0 + 1, Math.floor((f1 / (sampleRate / 2)) * freqData.length));
        var peak = 0;
        for (var k = i0; k < i1 && k < freqData.length; k++) peak = Math.max(peak, freqData[k]);
        var level = peak / 255;
        var bh = level * (bottom - top);
        var gradient = context.createLinearGradient(0, bottom - bh, 0, bottom);
        gradient.addColorStop(0, PINK);
        gradient.addColorStop(1, VIOLET);
        context.fillStyle = gradient;
        context.globalAlpha = 0.35 + 0.6 * level;
        roundRect(left + b * barWidth + 1, bottom - bh, Math.max(1, barWidth - 2), bh, 2);
        context.fill();
      }
      context.globalAlpha = 1;
    }

    // filter response curve: +24 dB at the top, -48 dB at the bottom
    function dbY(db) {
      return top + ((24 - clamp(db, -48, 24)) / 72) * (bottom - top);
    }
    context.beginPath();
    for (var px = 0; px <= 200; px++) {
      var f = fMin * Math.pow(fMax / fMin, px / 200);
      var yy = dbY(lowpassDb(f, state.filter_cutoff, state.filter_resonance, sampleRate));
      if (px === 0) context.moveTo(fx(f), yy);
      else context.lineTo(fx(f), yy);
    }
    context.strokeStyle = CYAN;
    context.lineWidth = 2;
    context.shadowColor = CYAN;
    context.shadowBlur = 10;
    context.stroke();
    context.shadowBlur = 0;
    context.lineTo(right, bottom);
    context.lineTo(left, bottom);
    context.closePath();
    context.fillStyle = 'rgba(34, 211, 238, 0.07)';
    context.fill();
    var cx = fx(clamp(state.filter_cutoff, fMin, fMax));
    context.setLineDash([3, 4]);
    context.beginPath();
    context.moveTo(cx, top);
    context.lineTo(cx, bottom);
    context.strokeStyle = 'rgba(34, 211, 238, 0.5)';
    context.lineWidth = 1;
    context.stroke();
    context.setLineDash([]);
    context.font = font(700, 11);
    context.fillStyle = CYAN;
    context.textAlign = cx > right - 90 ? 'right' : 'left';
    context.textBaseline = 'top';
    context.fillText(
      formatHz(state.filter_cutoff) + ' · Q ' + round(state.filter_resonance),
      cx + (cx > right - 90 ? -6 : 6),
      top + 2,
    );
  }

  function formatHz(hz) {
    return hz >= 1000 ? round(hz / 1000) + ' kHz' : Math.round(hz) + ' Hz';
  }

  function knob(cx, cy, radius, fraction, label, valueText, color, labelSize) {
    var start = Math.PI * 0.75;
    var end = Math.PI * 2.25;
    context.lineCap = 'round';
    context.beginPath();
    context.arc(cx, cy, radius, start, end);
    context.strokeStyle = 'rgba(150, 170, 230, 0.16)';
    context.lineWidth = 5;
    context.stroke();
    context.beginPath();
    context.arc(cx, cy, radius, start, start + (end - start) * clamp(fraction, 0, 1));
    context.strokeStyle = color;
    context.shadowColor = color;
    context.shadowBlur = 8;
    context.stroke();
    context.shadowBlur = 0;
    context.lineCap = 'butt';
    context.textAlign = 'center';
    context.textBaseline = 'middle';
    context.font = font(700, radius < 22 ? 10 : 12);
    context.fillStyle = '#eef3ff';
    context.fillText(valueText, cx, cy + 1);
    context.font = font(600, labelSize);
    context.fillStyle = 'rgba(180, 195, 235, 0.62)';
    context.fillText(label.toUpperCase(), cx, cy + radius + 14);
  }

  function formatMs(ms) {
    return ms >= 1000 ? round(ms / 1000) + 's' : Math.round(ms) + 'ms';
  }

  function logFraction(value, min, max) {
    return Math.log(value / min) / Math.log(max / min);
  }

  function drawControls(x, y, w, h) {
    panel(x, y, w, h, null);
    var infoWidth = Math.min(330, w * 0.34);
    var knobArea = w - infoWidth;
    var slot = knobArea / 7;
    var compact = slot < 88;
    var knobs = [
      ['Tempo', (state.tempo - 40) / 200, round(state.tempo), CYAN],
      [
        'Cutoff',
        logFraction(state.filter_cutoff, 40, 18000),
        state.filter_cutoff >= 1000 ? round(state.filter_cutoff / 1000) + 'k' : String(Math.round(state.filter_cutoff)),
        CYAN,
      ],
      [compact ? 'Reso' : 'Resonance', (state.filter_resonance - 0.1) / 19.9, round(state.filter_resonance), CYAN],
      [compact ? 'Atk' : 'Attack', logFraction(state.attack, 1, 2000), formatMs(state.attack), VIOLET],
      [compact ? 'Rel' : 'Release', logFraction(state.release, 10, 4000), formatMs(state.release), VIOLET],
      ['Echo', state.echo_mix, Math.round(state.echo_mix * 100) + '%', PINK],
      [compact ? 'Vol' : 'Volume', (state.volume + 60) / 60, round(state.volume) + (compact ? '' : 'dB'), PINK],
    ];
    var radius = Math.max(14, Math.min(26, slot / 2 - 12, h / 2 - 24));
    knobs.forEach(function (k, index) {
      knob(x + slot * (index + 0.5), y + h / 2 - 7, radius, k[1], k[0], k[2], k[3], compact ? 9 : 10);
    });
    // waveform selector and key read-out
    var ix = x + knobArea;
    context.beginPath();
    context.moveTo(ix, y + 14);
    context.lineTo(ix, y + h - 14);
    context.strokeStyle = 'rgba(150, 170, 230, 0.14)';
    context.lineWidth = 1;
    context.stroke();
    var waves = ['sine', 'triangle', 'square', 'sawtooth'];
    var cell = (infoWidth - 32) / 4;
    waves.forEach(function (wave, index) {
      var bx = ix + 16 + index * cell;
      var by = y + 14;
      var selected = state.waveform === wave;
      roundRect(bx + 3, by, cell - 6, 34, 8);
      context.fillStyle = selected ? 'rgba(34, 211, 238, 0.16)' : 'rgba(150, 170, 230, 0.05)';
      context.fill();
      context.strokeStyle = selected ? 'rgba(34, 211, 238, 0.7)' : 'rgba(150, 170, 230, 0.12)';
      context.stroke();
      context.beginPath();
      for (var i = 0; i <= 40; i++) {
        var t = i / 40;
        var value = waveIcon(wave, t * 2);
        var px = bx + 12 + (cell - 24) * t;
        var py = by + 17 - value * 9;
        if (i === 0) context.moveTo(px, py);
        else context.lineTo(px, py);
      }
      context.strokeStyle = selected ? CYAN : 'rgba(180, 195, 235, 0.45)';
      context.lineWidth = 1.6;
      context.stroke();
    });
    context.textAlign = 'left';
    context.textBaseline = 'alphabetic';
    context.font = font(700, 20);
    context.fillStyle = '#eef3ff';
    var key = state.root_note + state.octave + ' ' + state.scale;
    context.fillText(key, ix + 19, y + h - 34);
    context.font = font(500, 12);
    context.fillStyle = 'rgba(180, 195, 235, 0.7)';
    context.fillText(
      state.waveform + ' · ' + state.melody + ' · ' + formatHz(midiFrequency(rootMidi(state))),
      ix + 19,
      y + h - 15,
    );
  }

  function waveIcon(wave, phase) {
    var p = phase - Math.floor(phase);
    if (wave === 'square') return p < 0.5 ? 1 : -1;
    if (wave === 'sawtooth') return 2 * p - 1;
    if (wave === 'triangle') return 1 - 4 * Math.abs(p - 0.5);
    return Math.sin(p * Math.PI * 2);
  }

  function drawSteps(x, y, w, h) {
    panel(x, y, w, h, 'Pattern · 16 steps');
    var top = y + 34;
    var bottom = y + h - 14;
    var gap = 6;
    var groupGap = 10;
    var cell = (w - 28 - gap * 15 - groupGap * 3) / 16;
    for (var step = 0; step < 16; step++) {
      var cx = x + 14 + step * (cell + gap) + Math.floor(step / 4) * groupGap;
      var velocity = state.pattern[step];
      var current = step === visualStep && state.playing;
      roundRect(cx, top, cell, bottom - top, 8);
      context.fillStyle = current ? 'rgba(34, 211, 238, 0.18)' : 'rgba(150, 170, 230, 0.06)';
      context.fill();
      context.strokeStyle = current ? 'rgba(34, 211, 238, 0.9)' : 'rgba(150, 170, 230, 0.13)';
      context.lineWidth = current ? 1.5 : 1;
      context.stroke();
      var barTop = top + 22;
      var barBottom = bottom - 8;
      if (velocity > 0) {
        var bh = Math.max(3, (barBottom - barTop) * velocity);
        var gradient = context.createLinearGradient(0, barBottom - bh, 0, barBottom);
        gradient.addColorStop(0, current ? '#a5f3fc' : PINK);
        gradient.addColorStop(1, current ? CYAN : VIOLET);
        roundRect(cx + 8, barBottom - bh, cell - 16, bh, 4);
        context.fillStyle = gradient;
        if (current) {
          context.shadowColor = CYAN;
          context.shadowBlur = 16;
        }
        context.fill();
        context.shadowBlur = 0;
      } else {
        context.beginPath();
        context.moveTo(cx + cell / 2 - 6, barBottom - 2);
        context.lineTo(cx + cell / 2 + 6, barBottom - 2);
        context.strokeStyle = 'rgba(150, 170, 230, 0.3)';
        context.lineWidth = 2;
        context.stroke();
      }
      context.textAlign = 'center';
      context.textBaseline = 'top';
      context.font = font(600, 11);
      context.fillStyle =
        velocity > 0 ? (current ? '#ffffff' : 'rgba(225, 232, 250, 0.85)') : 'rgba(180, 195, 235, 0.35)';
      context.fillText(velocity > 0 ? midiName(stepMidi(state, step)) : 'rest', cx + cell / 2, top + 7);
    }
  }

  function draw(time) {
    context.setTransform(view.ratio, 0, 0, view.ratio, 0, 0);
    var W = view.width,
      H = view.height;
    var background = context.createRadialGradient(W * 0.3, -H * 0.2, 0, W * 0.5, H * 0.4, Math.max(W, H));
    background.addColorStop(0, '#1b2147');
    background.addColorStop(0.5, '#0e1226');
    background.addColorStop(1, '#080a14');
    context.fillStyle = background;
    context.fillRect(0, 0, W, H);

    if (audio) {
      while (scheduled.length && scheduled[0].time <= audio.context.currentTime) visualStep = scheduled.shift().step;
    }
    var margin = 20;
    var top = 64;
    var stepsHeight = Math.min(150, Math.max(90, H * 0.19));
    var controlsHeight = Math.min(120, Math.max(86, H * 0.15));
    var stepsY = H - margin - stepsHeight;
    var controlsY = stepsY - 14 - controlsHeight;
    var visualHeight = controlsY - 14 - top;
    var scopeWidth = (W - margin * 2 - 14) * 0.58;
    if (visualHeight > 60) {
      drawScope(margin, top, scopeWidth, visualHeight, time);
      drawSpectrum(margin + scopeWidth + 14, top, W - margin * 2 - 14 - scopeWidth, visualHeight);
    }
    drawControls(margin, controlsY, W - margin * 2, controlsHeight);
    drawSteps(margin, stepsY, W - margin * 2, stepsHeight);
  }

  function frame(time) {
    draw(time);
    window.requestAnimationFrame(frame);
  }

  // ---- start-up -----------------------------------------------------------------------------

  function init() {
    resize();
    window.addEventListener('resize', window.SplitbrainBridge.guard(resize));
    startButton.addEventListener('click', window.SplitbrainBridge.guard(unlock));
    transport.addEventListener('click', window.SplitbrainBridge.guard(toggleTransport));
    updateStatus();
    draw(0);
    window.requestAnimationFrame(frame);
    bridge.ready();
  }

  try {
    init();
  } catch (error) {
    bridge.reportError('Synth failed to start: ' + (error && error.message ? error.message : error));
  }
})();
