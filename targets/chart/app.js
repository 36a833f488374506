/*
 * Data chart target: deterministic synthetic daily data (seeded), drawn on a 2D canvas as line,
 * area, bar or scatter charts with linear or log y axis, grid, legend, a peak annotation and a
 * hover read-out. Parameter specs and defaults come from manifest.json through ../params.js.
 */
(function () {
  'use strict';

  var params = window.SplitbrainParams.fromManifest();
  var modules = window.ChartModules;
  var valueAt = modules.series.valueAt;
  var movingAverage = modules.series.movingAverage;
  var easing = modules.series.easing;
  var clamp = modules.paint.clamp;
  var computeLayout = modules.layout.computeLayout;
  var makeScales = modules.layout.makeScales;
  var card = modules.card;
  var drawAxes = modules.axes.drawAxes;
  var marks = modules.marks;
  var drawHover = modules.tooltip.drawHover;

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

  function draw() {
    if (!data) return;
    context.setTransform(view.ratio, 0, 0, view.ratio, 0, 0);
    var values = currentSeries(performance.now());
    var scene = { context: context, state: state, data: data, view: view, hover: hover };
    card.drawBackground(scene);
    layout = computeLayout(scene, values);
    card.drawCard(scene, layout.card);
    card.drawHeader(scene, layout);
    if (layout.legend) card.drawLegend(scene, layout.legend);
    if (layout.plot.w < 20 || layout.plot.h < 20) return;
    var scales = makeScales(scene, layout.plot);
    drawAxes(scene, layout.plot, scales);
    marks.drawSeries(scene, layout.plot, scales, values);
    marks.drawPeak(scene, layout.plot, scales, values);
    drawHover(scene, layout.plot, scales, values);
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
