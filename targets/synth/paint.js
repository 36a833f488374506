/* Step synthesizer target: colours, fonts, rounded panels and number formats shared by the drawing files. */
(function (modules) {
  'use strict';

  var CYAN = '#22d3ee';
  var VIOLET = '#a78bfa';
  var PINK = '#f472b6';
  var FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans", sans-serif';

  function clamp(value, min, max) {
    return Math.min(max, Math.max(min, value));
  }

  function round(value) {
    return String(Math.round(value * 10) / 10);
  }

  function font(weight, size) {
    return weight + ' ' + size + 'px ' + FONT;
  }

  function roundRect(context, x, y, w, h, r) {
    var radius = Math.max(0, Math.min(r, w / 2, h / 2));
    context.beginPath();
    context.moveTo(x + radius, y);
    context.arcTo(x + w, y, x + w, y + h, radius);
    context.arcTo(x + w, y + h, x, y + h, radius);
    context.arcTo(x, y + h, x, y, radius);
    context.arcTo(x, y, x + w, y, radius);
    context.closePath();
  }

  function panel(context, x, y, w, h, label) {
    roundRect(context, x, y, w, h, 14);
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

  function formatHz(hz) {
    return hz >= 1000 ? round(hz / 1000) + ' kHz' : Math.round(hz) + ' Hz';
  }

  function formatMs(ms) {
    return ms >= 1000 ? round(ms / 1000) + 's' : Math.round(ms) + 'ms';
  }

  modules.paint = {
    CYAN: CYAN,
    VIOLET: VIOLET,
    PINK: PINK,
    clamp: clamp,
    round: round,
    font: font,
    roundRect: roundRect,
    panel: panel,
    formatHz: formatHz,
    formatMs: formatMs,
  };
})((window.SynthModules = window.SynthModules || {}));
