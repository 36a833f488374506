/** A small canvas app with three parameters of different types and units, as a model would write it for createTarget. */
export const CANVAS_TARGET = {
  title: 'Orbit sketch',
  description: 'A dot orbiting on a canvas: radius, speed and colour.',
  params: {
    orbit: {
      radius: { type: 'number', unit: 'px', min: 10, max: 140, value: 60, description: 'Orbit radius.' },
      speed: { type: 'integer', unit: 'rpm', min: 0, max: 120, value: 30, description: 'Revolutions per minute.' },
    },
    look: { tint: { type: 'color', value: '#3366ff', description: 'Colour of the dot.' } },
  },
  html: '<canvas id="sky" width="320" height="320" aria-label="Orbit"></canvas><p id="readout">v1</p>',
  css: 'body { margin: 0; background: #101418; color: #dde; font: 14px sans-serif; } canvas { display: block; }',
  script: [
    'var params = SplitbrainParams.fromManifest();',
    'var state = params.defaults();',
    "var canvas = document.getElementById('sky');",
    "var context = canvas.getContext('2d');",
    'var angle = 0;',
    'function draw() {',
    "  context.fillStyle = '#101418'; context.fillRect(0, 0, 320, 320);",
    '  angle += (state.speed / 60) * (Math.PI * 2) / 60;',
    '  context.fillStyle = state.tint;',
    '  context.beginPath(); context.arc(160 + state.radius * Math.cos(angle), 160 + state.radius * Math.sin(angle), 12, 0, Math.PI * 2); context.fill();',
    '  requestAnimationFrame(draw);',
    '}',
    "var label = 'v1';",
    "function show() { document.getElementById('readout').textContent = label + ' r=' + state.radius + 'px ' + state.speed + 'rpm ' + state.tint; }",
    'SplitbrainBridge.connect({',
    '  apply: function (changes) { state = params.merge(state, changes); show(); },',
    '  reset: function () { state = params.defaults(); show(); },',
    '  getState: function () { return state; },',
    '}).ready();',
    'show();',
    'draw();',
  ].join('\n'),
};

/** The same app with three planted mistakes in its parameter schema. */
export const BROKEN_CANVAS_TARGET = {
  ...CANVAS_TARGET,
  params: {
    orbit: {
      radius: { type: 'number', unit: 'px', min: 140, max: 10, value: 60 },
      speed: { type: 'integer', unit: 'rpm', min: 0, max: 120, value: 30, colour: 'red' },
    },
    look: { tint: { type: 'color', value: 'blue' } },
  },
};

export const BROKEN_CANVAS_PATHS = ['/params/look/tint/value', '/params/orbit/radius/value', '/params/orbit/speed'];
