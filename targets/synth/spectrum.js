/* Step synthesizer target: the spectrum panel (analyser bars and the low-pass filter response curve). */
(function (modules) {
  'use strict';

  var CYAN = modules.paint.CYAN;
  var VIOLET = modules.paint.VIOLET;
  var PINK = modules.paint.PINK;
  var clamp = modules.paint.clamp;
  var round = modules.paint.round;
  var font = modules.paint.font;
  var roundRect = modules.paint.roundRect;
  var panel = modules.paint.panel;
  var formatHz = modules.paint.formatHz;

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

  function drawSpectrum(scene, x, y, w, h) {
    var context = scene.context;
    var state = scene.state;
    var audio = scene.audio;
    var unlocked = scene.unlocked;
    panel(context, x, y, w, h, 'Spectrum · low-pass filter');
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
      var freqData = scene.engine.readSpectrum();
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
        roundRect(context, left + b * barWidth + 1, bottom - bh, Math.max(1, barWidth - 2), bh, 2);
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

  modules.spectrum = { drawSpectrum: drawSpectrum };
})((window.SynthModules = window.SynthModules || {}));
