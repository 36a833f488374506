/* Data chart target: where the card, title, legend and plot go, and the scales of the plot. */
(function (modules) {
  'use strict';

  var SERIES = modules.series.SERIES;
  var formatValue = modules.scales.formatValue;
  var formatDay = modules.scales.formatDay;
  var clamp = modules.paint.clamp;
  var font = modules.paint.font;

  var PALETTES = {
    ocean: ['#1d4ed8', '#0ea5b7', '#7c3aed', '#10b981', '#64748b'],
    sunset: ['#f97316', '#e11d48', '#eab308', '#9333ea', '#fb7185'],
    forest: ['#15803d', '#84a31a', '#b45309', '#0f766e', '#78716c'],
    vivid: ['#ef4444', '#3b82f6', '#22c55e', '#f59e0b', '#a855f7'],
    mono: ['#1e3a8a', '#2f56c8', '#5b7cf0', '#8ea5f7', '#bfccfb'],
  };

  function seriesColors(state) {
    return PALETTES[state.palette] || PALETTES.ocean;
  }

  function subtitle(state) {
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

  function legendItems(state, values) {
    var colors = seriesColors(state);
    return values.map(function (series, s) {
      return { name: SERIES[s].name, color: colors[s], last: series[series.length - 1] };
    });
  }

  function computeLayout(scene, values) {
    var context = scene.context;
    var state = scene.state;
    var view = scene.view;
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
      var items = legendItems(state, values).map(function (item) {
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
      var subWidth = context.measureText(subtitle(state)).width;
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

  function makeScales(scene, plot) {
    var state = scene.state;
    var data = scene.data;
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

  modules.layout = {
    seriesColors: seriesColors,
    subtitle: subtitle,
    computeLayout: computeLayout,
    makeScales: makeScales,
  };
})((window.ChartModules = window.ChartModules || {}));
