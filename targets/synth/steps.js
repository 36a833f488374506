/* Step synthesizer target: the sixteen-step pattern panel with the step being heard highlighted. */
(function (modules) {
  'use strict';

  var stepMidi = modules.music.stepMidi;
  var midiName = modules.music.midiName;
  var CYAN = modules.paint.CYAN;
  var VIOLET = modules.paint.VIOLET;
  var PINK = modules.paint.PINK;
  var font = modules.paint.font;
  var roundRect = modules.paint.roundRect;
  var panel = modules.paint.panel;

  function drawSteps(scene, x, y, w, h) {
    var context = scene.context;
    var state = scene.state;
    var visualStep = scene.visualStep;
    panel(context, x, y, w, h, 'Pattern · 16 steps');
    var top = y + 34;
    var bottom = y + h - 14;
    var gap = 6;
    var groupGap = 10;
    var cell = (w - 28 - gap * 15 - groupGap * 3) / 16;
    for (var step = 0; step < 16; step++) {
      var cx = x + 14 + step * (cell + gap) + Math.floor(step / 4) * groupGap;
      var velocity = state.pattern[step];
      var current = step === visualStep && state.playing;
      roundRect(context, cx, top, cell, bottom - top, 8);
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
        roundRect(context, cx + 8, barBottom - bh, cell - 16, bh, 4);
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

  modules.steps = { drawSteps: drawSteps };
})((window.SynthModules = window.SynthModules || {}));
