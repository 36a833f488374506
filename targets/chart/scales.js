/* Data chart target: axis ticks (linear and log) and the formatting of values and days. */
(function (modules) {
  'use strict';

  function niceStep(span, count) {
    var raw = span / Math.max(1, count);
    var power = Math.pow(10, Math.floor(Math.log10(raw)));
    var unit = raw / power;
    var nice = unit < 1.5 ? 1 : unit < 3 ? 2 : unit < 7 ? 5 : 10;
    return nice * power;
  }

  function linearTicks(min, max, count) {
    var step = niceStep(max - min, count);
    var ticks = [];
    var first = Math.ceil(min / step - 1e-9) * step;
    for (var v = first; v <= max + step * 1e-6; v += step)
      ticks.push({ value: Math.abs(v) < step * 1e-9 ? 0 : v, major: true });
    return ticks;
  }

  function logTicks(min, max) {
    var ticks = [];
    var lo = Math.floor(Math.log10(min));
    var hi = Math.ceil(Math.log10(max));
    var decades = Math.log10(max) - Math.log10(min);
    var labelled = decades > 2.5 ? [1] : decades > 1.2 ? [1, 2, 5] : [1, 2, 3, 5, 7];
    for (var e = lo; e <= hi; e++) {
      for (var m = 1; m < 10; m++) {
        var v = m * Math.pow(10, e);
        if (v < min * (1 - 1e-9) || v > max * (1 + 1e-9)) continue;
        ticks.push({ value: v, major: labelled.indexOf(m) >= 0 });
      }
    }
    return ticks;
  }

  function formatValue(value) {
    var abs = Math.abs(value);
    if (abs >= 1e6) return trim(value / 1e6) + 'M';
    if (abs >= 1e4) return trim(value / 1e3) + 'k';
    if (abs >= 100) return String(Math.round(value));
    if (abs >= 10) return trim(Math.round(value * 10) / 10);
    if (abs === 0) return '0';
    return String(Number(value.toPrecision(2)));
  }

  function trim(value) {
    return String(Math.round(value * 10) / 10);
  }

  function formatDay(day) {
    return String(Math.round(day * 10) / 10);
  }

  modules.scales = { linearTicks: linearTicks, logTicks: logTicks, formatValue: formatValue, formatDay: formatDay };
})((window.ChartModules = window.ChartModules || {}));
