/* Data chart target: canvas helpers shared by the drawing files (shapes, colours, fonts, text fitting). */
(function (modules) {
  'use strict';

  var FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans", sans-serif';

  function clamp(value, min, max) {
    return Math.min(max, Math.max(min, value));
  }

  function hexToRgba(hex, alpha) {
    var n = parseInt(hex.slice(1), 16);
    return 'rgba(' + ((n >> 16) & 255) + ',' + ((n >> 8) & 255) + ',' + (n & 255) + ',' + alpha + ')';
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

  function topRoundedBar(context, x, y, w, h, r) {
    var radius = Math.max(0, Math.min(r, w / 2, Math.abs(h)));
    context.beginPath();
    if (h >= 0) {
      context.moveTo(x, y + h);
      context.lineTo(x, y + radius);
      context.arcTo(x, y, x + radius, y, radius);
      context.arcTo(x + w, y, x + w, y + radius, radius);
      context.lineTo(x + w, y + h);
    } else {
      context.moveTo(x, y + h);
      context.lineTo(x + w, y + h);
      context.lineTo(x + w, y);
      context.lineTo(x, y);
    }
    context.closePath();
  }

  function font(weight, size) {
    return weight + ' ' + size + 'px ' + FONT;
  }

  // The text, cut with an ellipsis to fit maxWidth in the current font.
  function fit(context, text, maxWidth) {
    if (context.measureText(text).width <= maxWidth) return text;
    var cut = text;
    while (cut.length > 1 && context.measureText(cut + '…').width > maxWidth) cut = cut.slice(0, -1);
    return cut.replace(/[\s·]+$/, '') + '…';
  }

  modules.paint = {
    clamp: clamp,
    hexToRgba: hexToRgba,
    roundRect: roundRect,
    topRoundedBar: topRoundedBar,
    font: font,
    fit: fit,
  };
})((window.ChartModules = window.ChartModules || {}));
