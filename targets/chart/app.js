/*
 * Data chart target: deterministic synthetic daily data (seeded), drawn on a 2D canvas as line,
 * area, bar or scatter charts with linear or log y axis, grid, legend, a peak annotation and a
 * hover read-out. Parameter specs and defaults come from manifest.json through ../params.js.
 */
(function () {
  'use strict';

  var params = window.SplitbrainParams.fromManifest();
  var modules = window.ChartModules;
  var SERIES = modules.series.SERIES;
  var valueAt = modules.series.valueAt;
  var movingAverage = modules.series.movingAverage;
  var easing = modules.series.easing;
  var linearTicks = modules.scales.linearTicks;
  var logTicks = modules.scales.logTicks;
  var formatValue = modules.scales.formatValue;
  var formatDay = modules.scales.formatDay;

  var PALETTES = {
    ocean: ['#1d4ed8', '#0ea5b7', '#7c3aed', '#10b981', '#64748b'],
    sunset: ['#f97316', '#e11d48', '#eab308', '#9333ea', '#fb7185'],
    forest: ['#15803d', '#84a31a', '#b45309', '#0f766e', '#78716c'],
    vivid: ['#ef4444', '#3b82f6', '#22c55e', '#f59e0b', '#a855f7'],
    mono: ['#1e3a8a', '#2f56c8', '#5b7cf0', '#8ea5f7', '#bfccfb'],
  };

  var FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans", sans-serif';
  var TWEEN_MS = 380;

  var state = params.defaults();
  var isReady = false;
  var canvas = document.getElementById('chart');
  var context = canvas.getContext('2d');
  var hud = { badge: document.getElementById('hud-badge'), text: document.getElementById('hud-text') };
  var view = { width: 1, height: 1, ratio: 1 };
  var data = null; // {x: [], series: [[...]], from: [[...]] | null, start: ms}
  var hover = null; // {x, y} in CSS pixels
  var layout = null;
  var drawQueued = false;

  var bridge = window.SplitbrainBridge.connect({ apply: apply, reset: reset, getState: getState });

  // ---- parameters -------------------------------------------------------------------------

  function getState() {
    return params.copy(state);
  }

  function clamp(value, min, max) {
    return Math.min(max, Math.max(min, value));
  }

  function checkCombination(next) {
    if (!(next.x_range[0] < next.x_range[1])) {
      throw new Error('x_range: start (' + next.x_range[0] + ') must be less than end (' + next.x_range[1] + ')');
    }
    if (!(next.y_min < next.y_max)) {
      throw new Error('y_min (' + next.y_min + ') must be less than y_max (' + next.y_max + ')');
    }
    if (next.scale === 'log' && !(next.y_min > 0)) {
      throw new Error(
        'scale "log" needs y_min > 0 (y_min is ' +
          next.y_min +
          '); set y_min as well, e.g. {"scale": "log", "y_min": 5}',
      );
    }
  }

  // All-or-nothing: one bad value (or an impossible combination) leaves everything as it was.
  function apply(changes) {
    var next = params.merge(state, changes);
    checkCombination(next);
    commit(next);
  }

  function reset() {
    commit(params.defaults());
  }

  function commit(next) {
    state = next;
    rebuildData();
    updateHud();
    requestDraw();
  }

  // ---- data -------------------------------------------------------------------------------

  function rebuildData() {
    var start = state.x_range[0];
    var end = state.x_range[1];
    var count = Math.max(2, state.points);
    var x = [];
    for (var i = 0; i < count; i++) x.push(start + ((end - start) * i) / (count - 1));
    var series = [];
    for (var s = 0; s < state.series_count; s++) {
      var raw = x.map(function (day) {
        return valueAt(s, day, state);
      });
      series.push(movingAverage(raw, state.smoothing));
    }
    var previous = data;
    var from = null;
    if (previous && previous.series.length === series.length && previous.x.length === x.length && isReady) {
      from = currentSeries(performance.now());
    }
    data = { x: x, series: series, from: from, start: performance.now() };
  }

  function currentSeries(now) {
    if (!data.from) return data.series;
    var t = clamp((now - data.start) / TWEEN_MS, 0, 1);
    if (t >= 1) {
      data.from = null;
      return data.series;
    }
    var k = easing(t);
    return data.series.map(function (values, s) {
      var from = data.from[s];
      return values.map(function (value, i) {
        return from[i] + (value - from[i]) * k;
      });
    });
  }

  // ---- scales and ticks ---------------------------------------------------------------------

  // ---- drawing ------------------------------------------------------------------------------

  function resize() {
    var ratio = Math.min(window.devicePixelRatio || 1, 2);
    view.ratio = ratio;
    view.width = Math.max(1, window.innerWidth);
    view.height = Math.max(1, window.innerHeight);
    canvas.width = Math.floor(view.width * ratio);
    canvas.height = Math.floor(view.height * ratio);
    requestDraw();
  }

  function requestDraw() {
    if (drawQueued) return;
    drawQueued = true;
    window.requestAnimationFrame(function () {
      drawQueued = false;
      draw();
      if (data && data.from) requestDraw();
    });
  }

  function hexToRgba(hex, alpha) {
    var n = parseInt(hex.slice(1), 16);
    return 'rgba(' + ((n >> 16) & 255) + ',' + ((n >> 8) & 255) + ',' + (n & 255) + ',' + alpha + ')';
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

  function topRoundedBar(x, y, w, h, r) {
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

  function seriesColors() {
    return PALETTES[state.palette] || PALETTES.ocean;
  }

  function subtitle() {
    var names = SERIES.slice(0, state.series_count).map(function (s) {
      return s.name;
    });
    var parts = [
      names.join(', '),
      'days ' + formatDay(state.x_range[0]) + '–' + formatDay(state.x_range[1]),
      state.points + ' points',
      state.smoothing > 1 ? state.smoothing + '-point moving average' : 'raw samples',
      state.scale + ' scale',
    ];
    return parts.join('  ·  ');
  }

  function legendItems(values) {
    var colors = seriesColors();
    return values.map(function (series, s) {
      return { name: SERIES[s].name, color: colors[s], last: series[series.length - 1] };
    });
  }

  function computeLayout(values) {
    var W = view.width;
    var H = view.height;
    var margin = W < 640 ? 10 : 24;
    var card = { x: margin, y: margin, w: W - margin * 2, h: H - margin * 2 - 12 };
    var pad = W < 640 ? 16 : 28;
    var top = card.y + pad;
    var title = state.title.trim();
    var titleHeight = title ? 26 : 0;
    var headerBottom = top + titleHeight + 20;

    // legend: one row at the right of the title when it fits, else its own row below
    var legend = null;
    if (state.show_legend) {
      context.font = font(600, 12);
      var items = legendItems(values).map(function (item) {
        var label = item.name;
        var valueText = formatValue(item.last);
        context.font = font(600, 12);
        var nameWidth = context.measureText(label).width;
        context.font = font(400, 12);
        var valueWidth = context.measureText(valueText).width;
        return { item: item, label: label, valueText: valueText, width: 22 + nameWidth + 6 + valueWidth + 14 };
      });
      var total = items.reduce(function (sum, entry) {
        return sum + entry.width + 8;
      }, -8);
      context.font = font(650, 22);
      var titleWidth = title ? context.measureText(title).width : 0;
      context.font = font(400, 13);
      var subWidth = context.measureText(subtitle()).width;
      var leftWidth = Math.max(titleWidth, subWidth);
      var inline = card.w - pad * 2 - leftWidth - 32 >= total;
      if (inline) {
        var cursor = card.x + card.w - pad - total;
        items.forEach(function (entry) {
          entry.x = cursor;
          entry.y = top + 2;
          cursor += entry.width + 8;
        });
      } else {
        // rows below the subtitle, wrapping at the card's edge
        var x = card.x + pad;
        var y = headerBottom + 8;
        items.forEach(function (entry) {
          if (x > card.x + pad && x + entry.width > card.x + card.w - pad) {
            x = card.x + pad;
            y += 36;
          }
          entry.x = x;
          entry.y = y;
          x += entry.width + 8;
        });
        headerBottom = y + 32;
      }
      legend = { items: items };
    }
    var plot = {
      x: card.x + pad + 52,
      y: headerBottom + 28,
      w: 0,
      h: 0,
    };
    plot.w = card.x + card.w - pad - 8 - plot.x;
    plot.h = card.y + card.h - pad - 40 - plot.y;
    return { card: card, pad: pad, top: top, title: title, titleHeight: titleHeight, legend: legend, plot: plot };
  }

  function makeScales(plot) {
    var start = state.x_range[0];
    var end = state.x_range[1];
    var count = data.x.length;
    var half = state.chart_type === 'bar' ? (end - start) / (count - 1) / 2 : 0;
    var x0 = start - half;
    var x1 = end + half;
    var log = state.scale === 'log';
    var y0 = log ? Math.log10(state.y_min) : state.y_min;
    var y1 = log ? Math.log10(state.y_max) : state.y_max;
    return {
      x: function (day) {
        return plot.x + ((day - x0) / (x1 - x0)) * plot.w;
      },
      day: function (px) {
        return x0 + ((px - plot.x) / plot.w) * (x1 - x0);
      },
      y: function (value) {
        var v = log ? (value > 0 ? Math.log10(value) : y0 - (y1 - y0) * 10) : value;
        return plot.y + plot.h - ((v - y0) / (y1 - y0)) * plot.h;
      },
      baseline: function () {
        if (log) return plot.y + plot.h;
        var zero = clamp(0, state.y_min, state.y_max);
        return plot.y + plot.h - ((zero - y0) / (y1 - y0)) * plot.h;
      },
    };
  }

  function drawBackground() {
    var W = view.width;
    var H = view.height;
    var gradient = context.createLinearGradient(0, 0, W, H);
    gradient.addColorStop(0, '#eef2f8');
    gradient.addColorStop(1, '#e3e8f0');
    context.fillStyle = gradient;
    context.fillRect(0, 0, W, H);
  }

  function drawCard(card) {
    context.save();
    context.shadowColor = 'rgba(15, 23, 42, 0.10)';
    context.shadowBlur = 28;
    context.shadowOffsetY = 8;
    roundRect(card.x, card.y, card.w, card.h, 18);
    context.fillStyle = '#ffffff';
    context.fill();
    context.restore();
    roundRect(card.x + 0.5, card.y + 0.5, card.w - 1, card.h - 1, 18);
    context.strokeStyle = 'rgba(15, 23, 42, 0.06)';
    context.lineWidth = 1;
    context.stroke();
  }

  function drawHeader(l) {
    var x = l.card.x + l.pad;
    var y = l.top;
    context.textBaseline = 'top';
    context.textAlign = 'left';
    if (l.title) {
      context.font = font(650, 22);
      context.fillStyle = '#0f172a';
      context.fillText(fit(l.title, l.card.w - l.pad * 2), x, y);
    }
    context.font = font(400, 13);
    context.fillStyle = '#64748b';
    context.fillText(fit(subtitle(), l.card.w - l.pad * 2), x, y + l.titleHeight + 2);
  }

  // The text, cut with an ellipsis to fit maxWidth in the current font.
  function fit(text, maxWidth) {
    if (context.measureText(text).width <= maxWidth) return text;
    var cut = text;
    while (cut.length > 1 && context.measureText(cut + '…').width > maxWidth) cut = cut.slice(0, -1);
    return cut.replace(/[\s·]+$/, '') + '…';
  }

  function drawLegend(legend) {
    legend.items.forEach(function (entry) {
      var x = entry.x;
      var y = entry.y;
      roundRect(x, y, entry.width, 28, 14);
      context.fillStyle = '#f4f6fa';
      context.fill();
      context.beginPath();
      context.arc(x + 14, y + 14, 5, 0, Math.PI * 2);
      context.fillStyle = entry.item.color;
      context.fill();
      context.textBaseline = 'middle';
      context.textAlign = 'left';
      context.font = font(600, 12);
      context.fillStyle = '#1e293b';
      context.fillText(entry.label, x + 24, y + 14.5);
      var nameWidth = context.measureText(entry.label).width;
      context.font = font(400, 12);
      context.fillStyle = '#64748b';
      context.fillText(entry.valueText, x + 24 + nameWidth + 6, y + 14.5);
    });
  }

  function drawAxes(plot, scales) {
    var log = state.scale === 'log';
    var yTicks = log
      ? logTicks(state.y_min, state.y_max)
      : linearTicks(state.y_min, state.y_max, Math.max(2, Math.round(plot.h / 62)));
    var xTicks = linearTicks(state.x_range[0], state.x_range[1], Math.max(2, Math.round(plot.w / 110)));
    context.lineWidth = 1;
    if (state.show_grid) {
      yTicks.forEach(function (tick) {
        var y = Math.round(scales.y(tick.value)) + 0.5;
        context.beginPath();
        context.moveTo(plot.x, y);
        context.lineTo(plot.x + plot.w, y);
        context.strokeStyle = tick.major ? 'rgba(100, 116, 139, 0.20)' : 'rgba(100, 116, 139, 0.08)';
        context.setLineDash(tick.major ? [] : [2, 4]);
        context.stroke();
      });
      context.setLineDash([3, 5]);
      xTicks.forEach(function (tick) {
        var x = Math.round(scales.x(tick.value)) + 0.5;
        context.beginPath();
        context.moveTo(x, plot.y);
        context.lineTo(x, plot.y + plot.h);
        context.strokeStyle = 'rgba(100, 116, 139, 0.13)';
        context.stroke();
      });
      context.setLineDash([]);
    }
    // axis lines
    context.beginPath();
    context.moveTo(plot.x, Math.round(plot.y + plot.h) + 0.5);
    context.lineTo(plot.x + plot.w, Math.round(plot.y + plot.h) + 0.5);
    context.strokeStyle = 'rgba(51, 65, 85, 0.45)';
    context.stroke();
    // labels
    context.font = font(400, 11.5);
    context.fillStyle = '#64748b';
    context.textAlign = 'right';
    context.textBaseline = 'middle';
    yTicks.forEach(function (tick) {
      if (!tick.major) return;
      context.fillText(formatValue(tick.value), plot.x - 10, scales.y(tick.value));
    });
    context.textAlign = 'center';
    context.textBaseline = 'top';
    xTicks.forEach(function (tick) {
      var x = scales.x(tick.value);
      context.beginPath();
      context.moveTo(Math.round(x) + 0.5, plot.y + plot.h);
      context.lineTo(Math.round(x) + 0.5, plot.y + plot.h + 5);
      context.strokeStyle = 'rgba(51, 65, 85, 0.45)';
      context.stroke();
      context.fillText(formatDay(tick.value), x, plot.y + plot.h + 9);
    });
    context.font = font(600, 11);
    context.fillStyle = '#94a3b8';
    context.textAlign = 'right';
    context.fillText('DAY', plot.x + plot.w, plot.y + plot.h + 25);
    context.textAlign = 'left';
    context.textBaseline = 'bottom';
    context.fillText('VALUE' + (log ? ' (LOG)' : ''), plot.x - 52, plot.y - 10);
  }

  function tracePath(values, scales) {
    context.beginPath();
    for (var i = 0; i < values.length; i++) {
      var x = scales.x(data.x[i]);
      var y = scales.y(values[i]);
      if (i === 0) context.moveTo(x, y);
      else context.lineTo(x, y);
    }
  }

  function drawSeries(plot, scales, values) {
    var colors = seriesColors();
    var type = state.chart_type;
    var width = state.line_width;
    context.save();
    context.beginPath();
    context.rect(plot.x - 12, plot.y - 1, plot.w + 24, plot.h + 2);
    context.clip();
    var baseline = scales.baseline();

    if (type === 'area') {
      for (var s = values.length - 1; s >= 0; s--) {
        tracePath(values[s], scales);
        context.lineTo(scales.x(data.x[data.x.length - 1]), baseline);
        context.lineTo(scales.x(data.x[0]), baseline);
        context.closePath();
        var gradient = context.createLinearGradient(0, plot.y, 0, plot.y + plot.h);
        gradient.addColorStop(0, hexToRgba(colors[s], 0.34));
        gradient.addColorStop(1, hexToRgba(colors[s], 0.03));
        context.fillStyle = gradient;
        context.fill();
      }
    }

    if (type === 'line' || type === 'area') {
      context.lineJoin = 'round';
      context.lineCap = 'round';
      for (s = values.length - 1; s >= 0; s--) {
        tracePath(values[s], scales);
        context.strokeStyle = colors[s];
        context.lineWidth = width;
        context.stroke();
      }
      for (s = 0; s < values.length; s++) {
        var last = values[s].length - 1;
        var lx = scales.x(data.x[last]);
        var ly = scales.y(values[s][last]);
        context.beginPath();
        context.arc(lx, ly, 3 + width, 0, Math.PI * 2);
        context.fillStyle = '#ffffff';
        context.fill();
        context.beginPath();
        context.arc(lx, ly, 1.5 + width * 0.6, 0, Math.PI * 2);
        context.fillStyle = colors[s];
        context.fill();
      }
    }

    if (type === 'bar') {
      var count = data.x.length;
      var slot = plot.w / count;
      var group = slot * 0.78;
      var barWidth = Math.max(1, group / values.length);
      for (var i = 0; i < count; i++) {
        var center = scales.x(data.x[i]);
        for (s = 0; s < values.length; s++) {
          var left = center - group / 2 + s * (group / values.length);
          var top = scales.y(values[s][i]);
          topRoundedBar(
            left,
            Math.min(top, baseline),
            Math.max(0.5, barWidth - (barWidth > 3 ? 1 : 0)),
            Math.abs(baseline - top),
            barWidth > 6 ? 3 : 0,
          );
          context.fillStyle = colors[s];
          context.fill();
        }
      }
    }

    if (type === 'scatter') {
      var radius = 1.2 + width * 0.9;
      for (s = values.length - 1; s >= 0; s--) {
        context.fillStyle = hexToRgba(colors[s], 0.85);
        for (i = 0; i < values[s].length; i++) {
          context.beginPath();
          context.arc(scales.x(data.x[i]), scales.y(values[s][i]), radius, 0, Math.PI * 2);
          context.fill();
          if (values[s].length <= 200) {
            context.strokeStyle = 'rgba(255,255,255,0.9)';
            context.lineWidth = 1;
            context.stroke();
          }
        }
      }
    }
    context.restore();
  }

  function drawPeak(plot, scales, values) {
    if (!values.length || state.chart_type === 'bar') return;
    // the highest visible point of all series
    var owner = -1;
    var best = 0;
    values.forEach(function (series, s) {
      for (var i = 0; i < series.length; i++) {
        if (series[i] > state.y_max) continue;
        if (owner < 0 || series[i] > values[owner][best]) {
          owner = s;
          best = i;
        }
      }
    });
    if (owner < 0) return;
    var value = values[owner][best];
    if (value < state.y_min) return;
    var x = scales.x(data.x[best]);
    var y = scales.y(value);
    var color = seriesColors()[owner];
    var text = SERIES[owner].name + ' peak ' + formatValue(value) + ' · day ' + formatDay(data.x[best]);
    context.font = font(600, 11.5);
    var w = context.measureText(text).width + 16;
    var bx = clamp(x - w / 2, plot.x, plot.x + plot.w - w);
    // above every series at that day, so the label hides no data there
    var highest = y;
    values.forEach(function (other) {
      highest = Math.min(highest, scales.y(other[best]));
    });
    var by = highest - 40;
    if (by < plot.y - 20) by = y + 14;
    context.beginPath();
    context.moveTo(x, y);
    context.lineTo(x, by + (by < y ? 22 : 0));
    context.strokeStyle = hexToRgba(color, 0.5);
    context.lineWidth = 1;
    context.setLineDash([2, 3]);
    context.stroke();
    context.setLineDash([]);
    roundRect(bx, by, w, 22, 11);
    context.fillStyle = '#0f172a';
    context.fill();
    context.fillStyle = '#ffffff';
    context.textAlign = 'left';
    context.textBaseline = 'middle';
    context.fillText(text, bx + 8, by + 11.5);
    context.beginPath();
    context.arc(x, y, 4, 0, Math.PI * 2);
    context.fillStyle = '#ffffff';
    context.fill();
    context.lineWidth = 2;
    context.strokeStyle = color;
    context.stroke();
  }

  function drawHover(plot, scales, values) {
    if (!hover || hover.x < plot.x || hover.x > plot.x + plot.w || hover.y < plot.y || hover.y > plot.y + plot.h)
      return;
    var day = scales.day(hover.x);
    var index = 0;
    for (var i = 1; i < data.x.length; i++) if (Math.abs(data.x[i] - day) < Math.abs(data.x[index] - day)) index = i;
    var x = scales.x(data.x[index]);
    context.beginPath();
    context.moveTo(Math.round(x) + 0.5, plot.y);
    context.lineTo(Math.round(x) + 0.5, plot.y + plot.h);
    context.strokeStyle = 'rgba(15, 23, 42, 0.35)';
    context.lineWidth = 1;
    context.stroke();
    var colors = seriesColors();
    var lines = values.map(function (series, s) {
      return { color: colors[s], text: SERIES[s].name + '  ' + formatValue(series[index]) };
    });
    context.font = font(600, 12);
    var w =
      16 +
      Math.max.apply(
        null,
        lines
          .map(function (line) {
            return context.measureText(line.text).width + 16;
          })
          .concat([context.measureText('Day ' + formatDay(data.x[index])).width]),
      );
    var h = 28 + lines.length * 19;
    var bx = x + 14 + w > plot.x + plot.w ? x - 14 - w : x + 14;
    var by = clamp(hover.y - h / 2, plot.y, plot.y + plot.h - h);
    context.save();
    context.shadowColor = 'rgba(15, 23, 42, 0.18)';
    context.shadowBlur = 14;
    roundRect(bx, by, w, h, 10);
    context.fillStyle = 'rgba(255,255,255,0.97)';
    context.fill();
    context.restore();
    context.textAlign = 'left';
    context.textBaseline = 'middle';
    context.fillStyle = '#0f172a';
    context.fillText('Day ' + formatDay(data.x[index]), bx + 10, by + 15);
    lines.forEach(function (line, k) {
      var ly = by + 34 + k * 19;
      context.beginPath();
      context.arc(bx + 14, ly, 4, 0, Math.PI * 2);
      context.fillStyle = line.color;
      context.fill();
      context.fillStyle = '#334155';
      context.font = font(400, 12);
      context.fillText(line.text, bx + 24, ly);
      var dot = scales.y(values[k][index]);
      context.beginPath();
      context.arc(x, dot, 4, 0, Math.PI * 2);
      context.fillStyle = line.color;
      context.fill();
    });
  }

  function draw() {
    if (!data) return;
    context.setTransform(view.ratio, 0, 0, view.ratio, 0, 0);
    var values = currentSeries(performance.now());
    drawBackground();
    layout = computeLayout(values);
    drawCard(layout.card);
    drawHeader(layout);
    if (layout.legend) drawLegend(layout.legend);
    if (layout.plot.w < 20 || layout.plot.h < 20) return;
    var scales = makeScales(layout.plot);
    drawAxes(layout.plot, scales);
    drawSeries(layout.plot, scales, values);
    drawPeak(layout.plot, scales, values);
    drawHover(layout.plot, scales, values);
  }

  // ---- HUD ----------------------------------------------------------------------------------

  function updateHud() {
    hud.text.textContent = 'synthetic data · seed ' + state.seed + ' · ' + state.chart_type;
    hud.badge.textContent = isReady ? 'ready' : 'starting…';
    hud.badge.className = 'badge ' + (isReady ? 'ready' : 'starting');
  }

  // ---- start-up -----------------------------------------------------------------------------

  function init() {
    resize();
    rebuildData();
    updateHud();
    window.addEventListener('resize', window.SplitbrainBridge.guard(resize));
    canvas.addEventListener(
      'mousemove',
      window.SplitbrainBridge.guard(function (event) {
        hover = { x: event.clientX, y: event.clientY };
        requestDraw();
      }),
    );
    canvas.addEventListener(
      'mouseleave',
      window.SplitbrainBridge.guard(function () {
        hover = null;
        requestDraw();
      }),
    );
    draw();
    isReady = true;
    updateHud();
    bridge.ready();
  }

  try {
    init();
  } catch (error) {
    bridge.reportError('Chart failed to start: ' + (error && error.message ? error.message : error));
  }
})();
