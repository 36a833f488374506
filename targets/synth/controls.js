/* Step synthesizer target: the knob strip, the waveform selector and the key read-out. */
(function (modules) {
  'use strict';

  var rootMidi = modules.music.rootMidi;
  var midiFrequency = modules.music.midiFrequency;
  var CYAN = modules.paint.CYAN;
  var VIOLET = modules.paint.VIOLET;
  var PINK = modules.paint.PINK;
  var clamp = modules.paint.clamp;
  var round = modules.paint.round;
  var font = modules.paint.font;
  var roundRect = modules.paint.roundRect;
  var panel = modules.paint.panel;
  var formatHz = modules.paint.formatHz;
  var formatMs = modules.paint.formatMs;

  function knob(context, cx, cy, radius, fraction, label, valueText, color, labelSize) {
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

  function logFraction(value, min, max) {
    return Math.log(value / min) / Math.log(max / min);
  }

  function drawControls(scene, x, y, w, h) {
    var context = scene.context;
    var state = scene.state;
    panel(context, x, y, w, h, null);
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
      knob(context, x + slot * (index + 0.5), y + h / 2 - 7, radius, k[1], k[0], k[2], k[3], compact ? 9 : 10);
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
      roundRect(context, bx + 3, by, cell - 6, 34, 8);
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

  modules.controls = { drawControls: drawControls };
})((window.SynthModules = window.SynthModules || {}));
