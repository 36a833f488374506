/*
 * Typography playground target: a sample article styled through CSS custom properties, plus a
 * spec sheet (type scale, text settings, colours with WCAG contrast ratios). Local fonts only.
 * Parameter specs and defaults come from manifest.json through ../params.js.
 */
(function () {
  'use strict';

  var params = window.SplitbrainParams.fromManifest();
  var FAMILIES = {
    serif: { label: 'Serif', stack: 'Georgia, Cambria, "Times New Roman", "Liberation Serif", "DejaVu Serif", serif' },
    'sans-serif': {
      label: 'Sans-serif',
      stack: '"Helvetica Neue", Helvetica, Arial, "Liberation Sans", "DejaVu Sans", sans-serif',
    },
    monospace: {
      label: 'Monospace',
      stack:
        'ui-monospace, "Cascadia Code", "SF Mono", Menlo, Consolas, "Liberation Mono", "DejaVu Sans Mono", monospace',
    },
    'system-ui': {
      label: 'System UI',
      stack: 'system-ui, -apple-system, "Segoe UI", Roboto, Ubuntu, Cantarell, "Noto Sans", "DejaVu Sans", sans-serif',
    },
    rounded: {
      label: 'Rounded',
      stack:
        'ui-rounded, "SF Pro Rounded", "Hiragino Maru Gothic ProN", Quicksand, Comfortaa, Manjari, "Arial Rounded MT", "Arial Rounded MT Bold", Calibri, "DejaVu Sans", sans-serif',
    },
    humanist: {
      label: 'Humanist',
      stack: 'Seravek, "Gill Sans Nova", "Gill Sans", Ubuntu, Calibri, "Segoe UI", "DejaVu Sans", sans-serif',
    },
    'old-style': {
      label: 'Old-style',
      stack:
        '"Iowan Old Style", "Palatino Linotype", "URW Palladio L", P052, Palatino, "Book Antiqua", "DejaVu Serif", serif',
    },
    geometric: {
      label: 'Geometric',
      stack:
        'Avenir, "Avenir Next", Montserrat, Futura, Corbel, "URW Gothic", "Century Gothic", "Liberation Sans", sans-serif',
    },
    slab: {
      label: 'Slab',
      stack: 'Rockwell, "Rockwell Nova", "Roboto Slab", "DejaVu Serif Condensed", "Sitka Small", "Courier New", serif',
    },
  };

  var state = params.defaults();
  var isReady = false;
  var root = document.documentElement;
  var card = document.getElementById('card');

  function byId(id) {
    return document.getElementById(id);
  }

  var ui = {
    badge: byId('badge'),
    h1: byId('scale-h1'),
    h2: byId('scale-h2'),
    h3: byId('scale-h3'),
    body: byId('scale-body'),
    family: byId('fact-family'),
    weight: byId('fact-weight'),
    leading: byId('fact-leading'),
    tracking: byId('fact-tracking'),
    measure: byId('fact-measure'),
    align: byId('fact-align'),
    chipText: byId('chip-text'),
    chipBackground: byId('chip-background'),
    chipAccent: byId('chip-accent'),
    hexText: byId('hex-text'),
    hexBackground: byId('hex-background'),
    hexAccent: byId('hex-accent'),
    ratioText: byId('ratio-text'),
    ratioAccent: byId('ratio-accent'),
    mode: byId('mode-note'),
    specimen: byId('specimen-title'),
  };

  var bridge = window.SplitbrainBridge.connect({ apply: apply, reset: reset, getState: getState });

  // ---- parameters -------------------------------------------------------------------------

  function getState() {
    return params.copy(state);
  }

  function clamp(value, min, max) {
    return Math.min(max, Math.max(min, value));
  }

  // All-or-nothing: one bad value leaves every parameter as it was.
  function apply(changes) {
    var next = params.merge(state, changes);
    commit(next);
  }

  function reset() {
    commit(params.defaults());
  }

  function commit(next) {
    state = next;
    render();
  }

  // ---- colour helpers -----------------------------------------------------------------------

  function rgb(hex) {
    var n = parseInt(hex.slice(1), 16);
    return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  }

  function toHex(channels) {
    return (
      '#' +
      channels
        .map(function (c) {
          var v = Math.round(clamp(c, 0, 255)).toString(16);
          return v.length < 2 ? '0' + v : v;
        })
        .join('')
    );
  }

  // t = 0 gives a, t = 1 gives b
  function mix(a, b, t) {
    var x = rgb(a),
      y = rgb(b);
    return toHex(
      [0, 1, 2].map(function (i) {
        return x[i] + (y[i] - x[i]) * t;
      }),
    );
  }

  function luminance(hex) {
    var channels = rgb(hex).map(function (c) {
      var v = c / 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2];
  }

  function contrast(a, b) {
    var la = luminance(a),
      lb = luminance(b);
    return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
  }

  function showRatio(element, ratio) {
    var grade = ratio >= 7 ? 'AAA' : ratio >= 4.5 ? 'AA' : ratio >= 3 ? 'AA large' : 'fail';
    element.textContent = (Math.round(ratio * 100) / 100).toFixed(2) + ' : 1 · ' + grade;
    element.className = 'ratio ' + (ratio >= 4.5 ? 'good' : ratio >= 3 ? 'fair' : 'poor');
  }

  // ---- rendering ----------------------------------------------------------------------------

  function px(value) {
    return Math.round(value * 10) / 10 + ' px';
  }

  function trimNumber(value, digits) {
    var factor = Math.pow(10, digits);
    return String(Math.round(value * factor) / factor);
  }

  function render() {
    var family = FAMILIES[state.font_family] || FAMILIES.serif;
    var ink = state.dark_mode ? state.background_color : state.text_color;
    var paper = state.dark_mode ? state.text_color : state.background_color;
    var paperIsLight = luminance(paper) > 0.18;
    var headingWeight = Math.min(900, state.font_weight + 300);
    var size = state.font_size;
    var ratio = state.heading_scale;

    var vars = {
      '--font-family': family.stack,
      '--font-size': size + 'px',
      '--leading': String(state.line_height),
      '--heading-leading': String(Math.max(1.05, 0.5 + state.line_height * 0.4)),
      '--tracking': state.letter_spacing + 'em',
      '--heading-tracking': state.letter_spacing * 0.6 - 0.015 + 'em',
      '--weight': String(state.font_weight),
      '--heading-weight': String(headingWeight),
      '--scale': String(ratio),
      '--measure': String(state.max_width),
      '--align': state.text_align,
      '--ink': ink,
      '--paper': paper,
      '--accent': state.accent_color,
      '--muted': mix(ink, paper, 0.34),
      '--rule': mix(ink, paper, 0.84),
      '--wash': mix(ink, paper, 0.93),
      '--backdrop': paperIsLight ? mix(paper, '#000000', 0.08) : mix(paper, '#000000', 0.42),
      '--backdrop-glow': paperIsLight ? mix(paper, '#ffffff', 0.35) : mix(paper, '#000000', 0.12),
    };
    Object.keys(vars).forEach(function (name) {
      root.style.setProperty(name, vars[name]);
    });
    document.body.classList.toggle('dark', !paperIsLight);

    ui.h1.textContent = px(size * ratio * ratio * ratio);
    ui.h2.textContent = px(size * ratio * ratio);
    ui.h3.textContent = px(size * ratio);
    ui.body.textContent = px(size);
    ui.family.textContent = family.label;
    ui.weight.textContent = state.font_weight + ' body · ' + headingWeight + ' headings';
    ui.leading.textContent = trimNumber(state.line_height, 2) + ' × = ' + px(size * state.line_height);
    ui.tracking.textContent = trimNumber(state.letter_spacing, 3) + ' em';
    ui.align.textContent = state.text_align;
    ui.specimen.textContent =
      family.label + ' · ' + state.font_weight + ' · ' + trimNumber(size, 1) + ' / ' + trimNumber(state.line_height, 2);

    ui.chipText.style.background = ink;
    ui.chipBackground.style.background = paper;
    ui.chipAccent.style.background = state.accent_color;
    ui.hexText.textContent = ink;
    ui.hexBackground.textContent = paper;
    ui.hexAccent.textContent = state.accent_color;
    showRatio(ui.ratioText, contrast(ink, paper));
    showRatio(ui.ratioAccent, contrast(state.accent_color, paper));
    ui.mode.textContent = state.dark_mode
      ? 'Dark mode: text and background colours trade places.'
      : 'Light mode: text_color on background_color.';
    updateMeasure();
    updateBadge();
  }

  // The measure actually achieved (the card may be narrower than max_width on a small window).
  function updateMeasure() {
    var style = window.getComputedStyle(card);
    var inner = card.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    ui.measure.textContent = trimNumber(state.max_width, 1) + ' ch · ' + Math.round(inner) + ' px';
  }

  function updateBadge() {
    ui.badge.textContent = isReady ? 'ready' : 'starting…';
    ui.badge.className = 'badge ' + (isReady ? 'ready' : 'starting');
  }

  // ---- start-up -----------------------------------------------------------------------------

  function fontsSettled() {
    if (!document.fonts || !document.fonts.ready) return Promise.resolve();
    return Promise.race([
      document.fonts.ready,
      new Promise(function (resolve) {
        window.setTimeout(resolve, 1500);
      }),
    ]);
  }

  async function init() {
    render();
    window.addEventListener('resize', window.SplitbrainBridge.guard(updateMeasure));
    await fontsSettled();
    isReady = true;
    updateBadge();
    bridge.ready();
  }

  init().catch(function (error) {
    bridge.reportError('Typography playground failed to start: ' + (error && error.message ? error.message : error));
  });
})();
