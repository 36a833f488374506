/* Data chart target: the synthetic daily data, a deterministic function of series, day, seed and noise, and its smoothing. */
(function (modules) {
  'use strict';

  var SERIES = [
    { name: 'Europe', base: 90, growth: 0.22, weekly: 0.09 },
    { name: 'Americas', base: 70, growth: 0.3, weekly: 0.07 },
    { name: 'Asia', base: 120, growth: 0.35, weekly: 0.05 },
    { name: 'Africa', base: 40, growth: 0.6, weekly: 0.06 },
    { name: 'Oceania', base: 20, growth: 0.18, weekly: 0.1 },
  ];

  function hash(a, b, c, d) {
    var h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x632be5ab, 0xc2b2ae35);
    h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) ^ Math.imul(c + 0x27d4eb2f, 0x165667b1);
    h = Math.imul(h ^ (h >>> 13), 0x297a2d39) ^ Math.imul(d + 0x7f4a7c15, 0x94d049bb);
    h ^= h >>> 16;
    return ((h >>> 0) / 4294967296) * 2 - 1; // [-1, 1)
  }

  function valueNoise(seed, series, octave, t) {
    var i = Math.floor(t);
    var f = t - i;
    var u = f * f * (3 - 2 * f);
    var a = hash(seed, series, octave, i);
    var b = hash(seed, series, octave, i + 1);
    return a + (b - a) * u;
  }

  var OCTAVES = [
    [1 / 45, 0.45],
    [1 / 12, 0.3],
    [1 / 3, 0.17],
    [1, 0.08],
  ];

  // The value of one series on a day, for the seed and noise of `settings`.
  function valueAt(seriesIndex, day, settings) {
    var series = SERIES[seriesIndex];
    var seed = settings.seed;
    var phase = hash(seed, seriesIndex, 97, 5) * Math.PI;
    var yearPhase = hash(seed, seriesIndex, 98, 11) * Math.PI;
    var wiggle = 0;
    for (var o = 0; o < OCTAVES.length; o++) {
      wiggle += OCTAVES[o][1] * valueNoise(seed, seriesIndex, o, day * OCTAVES[o][0] + o * 17.3);
    }
    var level = series.base * (1 + (series.growth * day) / 365);
    var weekly = 1 + series.weekly * Math.sin((2 * Math.PI * day) / 7 + phase);
    var yearly = 1 + 0.12 * Math.sin((2 * Math.PI * day) / 365 + yearPhase);
    var value = level * weekly * yearly * (1 + settings.noise * 0.45 * wiggle * 1.6);
    return Math.max(0.5, value);
  }

  function movingAverage(values, window) {
    if (window <= 1) return values.slice();
    var prefix = [0];
    for (var i = 0; i < values.length; i++) prefix.push(prefix[i] + values[i]);
    var before = Math.floor((window - 1) / 2);
    var after = window - 1 - before;
    return values.map(function (value, index) {
      var from = Math.max(0, index - before);
      var to = Math.min(values.length - 1, index + after);
      return (prefix[to + 1] - prefix[from]) / (to - from + 1);
    });
  }

  function easing(t) {
    return 1 - Math.pow(1 - t, 3);
  }

  modules.series = { SERIES: SERIES, valueAt: valueAt, movingAverage: movingAverage, easing: easing };
})((window.ChartModules = window.ChartModules || {}));
