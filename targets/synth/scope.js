/* Step synthesizer target: the oscilloscope panel (the live trace, or a silent preview of the waveform). */
(function (modules) {
  'use strict';

  var clamp = modules.paint.clamp;
  var panel = modules.paint.panel;
  var roundRect = modules.paint.roundRect;

  // One period of the selected waveform, for the silent preview.
  function waveSample(state, phase) {
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

  function drawScope(scene, x, y, w, h, time) {
    var context = scene.context;
    var state = scene.state;
    var audio = scene.audio;
    var unlocked = scene.unlocked;
    var memory = scene.scope;
    panel(context, x, y, w, h, audio && unlocked ? 'Oscilloscope' : 'Oscilloscope · preview (silent)');
    var mid = y + h / 2 + 8;
    var amp = (h - 56) / 2;
    context.save();
    roundRect(context, x, y, w, h, 14);
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
      var timeData = scene.engine.readWaveform();
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
      var target = peak > 0.002 ? Math.min(12, 0.85 / peak) : memory.gain;
      memory.gain += (target - memory.gain) * 0.15;
      for (i = 0; i < span; i++)
        points.push([
          x + 16 + ((w - 32) * i) / (span - 1),
          mid - clamp(timeData[start + i] * memory.gain, -1, 1) * amp,
        ]);
    } else {
      var cycles = 3;
      var breathe = 0.75 + 0.12 * Math.sin(time / 700);
      for (i = 0; i <= 400; i++) {
        var t = i / 400;
        points.push([x + 16 + (w - 32) * t, mid - waveSample(state, t * cycles) * amp * breathe * softFilter(state)]);
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
  function softFilter(state) {
    return 0.55 + 0.45 * clamp(Math.log(state.filter_cutoff / 40) / Math.log(18000 / 40), 0, 1);
  }

  modules.scope = { drawScope: drawScope };
})((window.SynthModules = window.SynthModules || {}));
