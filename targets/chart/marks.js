/* Data chart target: the series as lines, areas, bars or dots, and the peak annotation. */
(function (modules) {
  'use strict';

  var SERIES = modules.series.SERIES;
  var formatValue = modules.scales.formatValue;
  var formatDay = modules.scales.formatDay;
  var seriesColors = modules.layout.seriesColors;
  var clamp = modules.paint.clamp;
  var hexToRgba = modules.paint.hexToRgba;
  var roundRect = modules.paint.roundRect;
  var topRoundedBar = modules.paint.topRoundedBar;
  var font = modules.paint.font;

  function tracePath(context, data, values, scales) {
    context.beginPath();
    for (var i = 0; i < values.length; i++) {
      var x = scales.x(data.x[i]);
      var y = scales.y(values[i]);
      if (i === 0) context.moveTo(x, y);
      else context.lineTo(x, y);
    }
  }

  function drawSeries(scene, plot, scales, values) {
    var context = scene.context;
    var state = scene.state;
    var data = scene.data;
    var colors = seriesColors(state);
    var type = state.chart_type;
    var width = state.line_width;
    context.save();
    context.beginPath();
    context.rect(plot.x - 12, plot.y - 1, plot.w + 24, plot.h + 2);
    context.clip();
    var baseline = scales.baseline();

    if (type === 'area') {
      for (var s = values.length - 1; s >= 0; s--) {
        tracePath(context, data, values[s], scales);
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
        tracePath(context, data, values[s], scales);
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
            context,
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

  function drawPeak(scene, plot, scales, values) {
    var context = scene.context;
    var state = scene.state;
    var data = scene.data;
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
    var color = seriesColors(state)[owner];
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
    roundRect(context, bx, by, w, 22, 11);
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

  modules.marks = { drawSeries: drawSeries, drawPeak: drawPeak };
})((window.ChartModules = window.ChartModules || {}));
