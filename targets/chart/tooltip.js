/* Data chart target: the hover read-out (a vertical rule, a dot per series and a card of values). */
(function (modules) {
  'use strict';

  var SERIES = modules.series.SERIES;
  var formatValue = modules.scales.formatValue;
  var formatDay = modules.scales.formatDay;
  var seriesColors = modules.layout.seriesColors;
  var clamp = modules.paint.clamp;
  var roundRect = modules.paint.roundRect;
  var font = modules.paint.font;

  function drawHover(scene, plot, scales, values) {
    var context = scene.context;
    var state = scene.state;
    var data = scene.data;
    var hover = scene.hover;
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
    var colors = seriesColors(state);
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
    roundRect(context, bx, by, w, h, 10);
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

  modules.tooltip = { drawHover: drawHover };
})((window.ChartModules = window.ChartModules || {}));
