/* Data chart target: grid lines, the axis line, tick marks and tick labels. */
(function (modules) {
  'use strict';

  var linearTicks = modules.scales.linearTicks;
  var logTicks = modules.scales.logTicks;
  var formatValue = modules.scales.formatValue;
  var formatDay = modules.scales.formatDay;
  var font = modules.paint.font;

  function drawAxes(scene, plot, scales) {
    var context = scene.context;
    var state = scene.state;
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

  modules.axes = { drawAxes: drawAxes };
})((window.ChartModules = window.ChartModules || {}));
