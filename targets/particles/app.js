/*
 * Particle field target: particles flow through a 12 × 12 × 12 world-unit box centred on the
 * origin, projected onto a 2D canvas from a camera that always looks at the origin.
 * Parameter specs and defaults come from manifest.json through ../params.js.
 * `?initDelayMs=NNN` or `#initDelayMs=NNN` delays ready() to simulate a slow-starting target.
 */
(function () {
  'use strict';

  var params = window.SplitbrainParams.fromManifest();

  var HALF = 6; // half the edge of the simulated box, world units (metres)
  var MAX_PARTICLES = params.specs.particle_count.max;
  var FIELD_OF_VIEW = Math.PI / 3; // across the shorter side of the canvas
  var NEAR = 0.1;
  var VECTOR_SECONDS = 0.1; // a vector shows where the particle will be this much later
  var VECTOR_MAX = 2.5; // world units
  var VORTEX_CORE = 2; // radius of solid-body rotation at the vortex centre
  var MAX_STEP = 0.05; // seconds; longer gaps (hidden tab) do not teleport particles

  var state = params.defaults();
  var seeded = 0;
  var isReady = false;

  var x = new Float32Array(MAX_PARTICLES);
  var y = new Float32Array(MAX_PARTICLES);
  var z = new Float32Array(MAX_PARTICLES);
  var vx = new Float32Array(MAX_PARTICLES);
  var vy = new Float32Array(MAX_PARTICLES);
  var vz = new Float32Array(MAX_PARTICLES);
  var phase = new Float32Array(MAX_PARTICLES);
  var jitter = new Float32Array(MAX_PARTICLES);

  var canvas = document.getElementById('field');
  var context = canvas.getContext('2d');
  var hud = {
    badge: document.getElementById('hud-badge'),
    speed: document.getElementById('hud-speed'),
    mode: document.getElementById('hud-mode'),
  };
  var view = { width: 1, height: 1, ratio: 1, focal: 1, background: null };
  var camera = { px: 0, py: 0, pz: 0, distance: 1, r: [1, 0, 0], u: [0, 1, 0], f: [0, 0, -1] };
  var sprite = null;
  var vectorColor = 'rgba(235, 245, 255, 0.45)';
  var lastTime = 0;
  var clock = 0;

  var bridge = window.SplitbrainBridge.connect({
    apply: apply,
    reset: reset,
    getState: getState,
  });

  // ---- parameters -------------------------------------------------------------------------

  function getState() {
    return params.copy(state);
  }

  // All-or-nothing: one bad value leaves every parameter as it was.
  function apply(changes) {
    commit(params.merge(state, changes));
  }

  function reset() {
    commit(params.defaults());
    seedRange(0, state.particle_count);
  }

  function commit(next) {
    var previous = state;
    state = next;
    if (next.particle_count > seeded) seedRange(seeded, next.particle_count);
    if (!sprite || next.color !== previous.color) sprite = makeSprite(next.color);
    updateCamera();
    updateHud();
  }

  // ---- simulation ---------------------------------------------------------------------------

  function seedRange(from, to) {
    for (var i = from; i < to; i++) {
      x[i] = (Math.random() * 2 - 1) * HALF;
      y[i] = (Math.random() * 2 - 1) * HALF;
      z[i] = (Math.random() * 2 - 1) * HALF;
      vx[i] = vy[i] = vz[i] = 0;
      phase[i] = Math.random() * Math.PI * 2;
      jitter[i] = Math.random();
    }
    seeded = Math.max(seeded, to);
  }

  function wrap(value) {
    var span = HALF * 2;
    return ((((value + HALF) % span) + span) % span) - HALF;
  }

  function stepFlow(i, dt, wavy) {
    var speed = state.speed;
    if (wavy) {
      vx[i] = speed * (0.85 + 0.3 * jitter[i]);
      vy[i] = speed * 0.16 * Math.sin(0.32 * x[i] + 0.9 * clock + phase[i]);
      vz[i] = speed * 0.16 * Math.cos(0.27 * y[i] + 0.7 * clock + 1.3 * phase[i]);
    } else {
      vx[i] = speed;
      vy[i] = 0;
      vz[i] = 0;
    }
    x[i] = wrap(x[i] + vx[i] * dt);
    y[i] = wrap(y[i] + vy[i] * dt);
    z[i] = wrap(z[i] + vz[i] * dt);
  }

  function stepVortex(i, dt) {
    var radius = Math.sqrt(x[i] * x[i] + z[i] * z[i]);
    var tangential = state.speed * (0.85 + 0.3 * jitter[i]) * Math.min(1, radius / VORTEX_CORE);
    var angle = radius > 1e-6 ? (tangential / radius) * dt : 0;
    var cos = Math.cos(angle);
    var sin = Math.sin(angle);
    var nx = x[i] * cos - z[i] * sin;
    var nz = x[i] * sin + z[i] * cos;
    var unit = radius > 1e-6 ? tangential / radius : 0;
    vx[i] = -z[i] * unit;
    vz[i] = x[i] * unit;
    vy[i] = state.speed * 0.06 * Math.sin(0.8 * clock + phase[i]);
    x[i] = nx;
    z[i] = nz;
    y[i] = wrap(y[i] + vy[i] * dt);
  }

  function step(dt) {
    clock += dt;
    var count = Math.min(state.particle_count, seeded);
    for (var i = 0; i < count; i++) {
      if (state.mode === 'vortex') stepVortex(i, dt);
      else stepFlow(i, dt, state.mode === 'auto');
    }
  }

  // ---- camera and projection ----------------------------------------------------------------

  function cross(a, b) {
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  }

  function normalize(v) {
    var length = Math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    return length > 1e-9 ? [v[0] / length, v[1] / length, v[2] / length] : null;
  }

  function updateCamera() {
    var p = state.position;
    var forward = normalize([-p[0], -p[1], -p[2]]) || [0, 0, -1];
    var right = normalize(cross(forward, [0, 1, 0])) || normalize(cross(forward, [0, 0, -1]));
    camera.px = p[0];
    camera.py = p[1];
    camera.pz = p[2];
    camera.distance = Math.sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
    camera.f = forward;
    camera.r = right;
    camera.u = cross(right, forward);
  }

  // Camera space: [right, up, depth].
  function toCamera(px, py, pz, out) {
    var dx = px - camera.px;
    var dy = py - camera.py;
    var dz = pz - camera.pz;
    out[0] = dx * camera.r[0] + dy * camera.r[1] + dz * camera.r[2];
    out[1] = dx * camera.u[0] + dy * camera.u[1] + dz * camera.u[2];
    out[2] = dx * camera.f[0] + dy * camera.f[1] + dz * camera.f[2];
    return out;
  }

  function screenX(c) {
    return view.width / 2 + (c[0] * view.focal) / c[2];
  }
  function screenY(c) {
    return view.height / 2 - (c[1] * view.focal) / c[2];
  }

  var segmentA = [0, 0, 0];
  var segmentB = [0, 0, 0];

  // Adds a world-space segment to the current path, clipped at the near plane.
  function addSegment(ax, ay, az, bx, by, bz) {
    var a = toCamera(ax, ay, az, segmentA);
    var b = toCamera(bx, by, bz, segmentB);
    if (a[2] < NEAR && b[2] < NEAR) return;
    if (a[2] < NEAR || b[2] < NEAR) {
      var inside = a[2] < NEAR ? b : a;
      var outside = a[2] < NEAR ? a : b;
      var t = (NEAR - inside[2]) / (outside[2] - inside[2]);
      outside[0] = inside[0] + (outside[0] - inside[0]) * t;
      outside[1] = inside[1] + (outside[1] - inside[1]) * t;
      outside[2] = NEAR;
    }
    context.moveTo(screenX(a), screenY(a));
    context.lineTo(screenX(b), screenY(b));
  }

  // ---- drawing ------------------------------------------------------------------------------

  function hexToRgb(hex) {
    var n = parseInt(hex.slice(1), 16);
    return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  }

  function makeSprite(color) {
    var size = 64;
    var image = document.createElement('canvas');
    image.width = image.height = size;
    var g = image.getContext('2d');
    var rgb = hexToRgb(color);
    var core = rgb.map(function (c) {
      return Math.round(c + (255 - c) * 0.75);
    });
    var gradient = g.createRadialGradient(size / 2, size / 2, 0, size / 2, size / 2, size / 2);
    gradient.addColorStop(0, 'rgba(' + core.join(',') + ',1)');
    gradient.addColorStop(0.12, 'rgba(' + rgb.join(',') + ',0.95)');
    gradient.addColorStop(0.35, 'rgba(' + rgb.join(',') + ',0.28)');
    gradient.addColorStop(0.7, 'rgba(' + rgb.join(',') + ',0.06)');
    gradient.addColorStop(1, 'rgba(' + rgb.join(',') + ',0)');
    g.fillStyle = gradient;
    g.fillRect(0, 0, size, size);
    var tint = rgb.map(function (c) {
      return Math.round(c + (255 - c) * 0.55);
    });
    vectorColor = 'rgba(' + tint.join(',') + ',0.5)';
    return image;
  }

  function resize() {
    var ratio = Math.min(window.devicePixelRatio || 1, 2);
    var width = Math.max(1, Math.floor(window.innerWidth * ratio));
    var height = Math.max(1, Math.floor(window.innerHeight * ratio));
    canvas.width = width;
    canvas.height = height;
    view.width = width;
    view.height = height;
    view.ratio = ratio;
    view.focal = Math.min(width, height) / (2 * Math.tan(FIELD_OF_VIEW / 2));
    var gradient = context.createRadialGradient(
      width / 2,
      height * 0.45,
      0,
      width / 2,
      height * 0.45,
      Math.max(width, height) * 0.75,
    );
    gradient.addColorStop(0, '#0d1830');
    gradient.addColorStop(0.55, '#070b17');
    gradient.addColorStop(1, '#020308');
    view.background = gradient;
  }

  function drawBox() {
    var h = HALF;
    var corners = [
      [-h, -h, -h],
      [h, -h, -h],
      [h, h, -h],
      [-h, h, -h],
      [-h, -h, h],
      [h, -h, h],
      [h, h, h],
      [-h, h, h],
    ];
    var edges = [
      [0, 1],
      [1, 2],
      [2, 3],
      [3, 0],
      [4, 5],
      [5, 6],
      [6, 7],
      [7, 4],
      [0, 4],
      [1, 5],
      [2, 6],
      [3, 7],
    ];
    context.beginPath();
    edges.forEach(function (edge) {
      var a = corners[edge[0]];
      var b = corners[edge[1]];
      addSegment(a[0], a[1], a[2], b[0], b[1], b[2]);
    });
    context.lineWidth = view.ratio;
    context.strokeStyle = 'rgba(140, 180, 255, 0.13)';
    context.stroke();
    drawFloorGrid();
  }

  function drawFloorGrid() {
    context.beginPath();
    for (var k = -HALF + 2; k < HALF; k += 2) {
      addSegment(k, -HALF, -HALF, k, -HALF, HALF);
      addSegment(-HALF, -HALF, k, HALF, -HALF, k);
    }
    context.strokeStyle = 'rgba(140, 180, 255, 0.05)';
    context.stroke();
  }

  var point = [0, 0, 0];

  function drawParticles(count) {
    var depthNear = Math.max(NEAR, camera.distance - HALF * 1.7);
    var depthSpan = Math.max(1, HALF * 3.4);
    var worldSize = 0.65;
    context.globalCompositeOperation = 'lighter';
    for (var i = 0; i < count; i++) {
      var c = toCamera(x[i], y[i], z[i], point);
      if (c[2] < NEAR) continue;
      var size = (worldSize * (0.7 + 0.6 * jitter[i]) * view.focal) / c[2];
      if (size < 1.2) size = 1.2;
      else if (size > 90 * view.ratio) size = 90 * view.ratio;
      var fog = Math.min(1, Math.max(0, (c[2] - depthNear) / depthSpan));
      context.globalAlpha = (0.45 + 0.55 * (phase[i] / (Math.PI * 2))) * (1 - 0.8 * fog);
      context.drawImage(sprite, screenX(c) - size / 2, screenY(c) - size / 2, size, size);
    }
    context.globalAlpha = 1;
    context.globalCompositeOperation = 'source-over';
  }

  function drawVectors(count) {
    context.beginPath();
    for (var i = 0; i < count; i++) {
      var length = Math.sqrt(vx[i] * vx[i] + vy[i] * vy[i] + vz[i] * vz[i]) * VECTOR_SECONDS;
      if (length < 1e-4) continue;
      var scale = length > VECTOR_MAX ? (VECTOR_MAX / length) * VECTOR_SECONDS : VECTOR_SECONDS;
      addSegment(x[i], y[i], z[i], x[i] + vx[i] * scale, y[i] + vy[i] * scale, z[i] + vz[i] * scale);
    }
    context.lineWidth = view.ratio;
    context.lineCap = 'round';
    context.strokeStyle = vectorColor;
    context.stroke();
  }

  function draw() {
    var count = Math.min(state.particle_count, seeded);
    context.fillStyle = view.background;
    context.fillRect(0, 0, view.width, view.height);
    drawBox();
    if (state.show_vectors) drawVectors(count);
    drawParticles(count);
  }

  function frame(time) {
    var dt = lastTime ? Math.min(MAX_STEP, (time - lastTime) / 1000) : 0;
    lastTime = time;
    step(dt);
    draw();
    window.requestAnimationFrame(frame);
  }

  // ---- HUD ----------------------------------------------------------------------------------

  function formatSpeed(speed) {
    return String(Math.round(speed * 100) / 100) + ' m/s';
  }

  function updateHud() {
    hud.speed.textContent = formatSpeed(state.speed);
    hud.mode.textContent = state.mode;
    hud.badge.textContent = isReady ? 'ready' : 'starting…';
    hud.badge.className = 'badge ' + (isReady ? 'ready' : 'starting');
  }

  // ---- start-up -----------------------------------------------------------------------------

  function readInitDelay() {
    var sources = [window.location.search.slice(1), window.location.hash.slice(1)];
    for (var k = 0; k < sources.length; k++) {
      var raw = new URLSearchParams(sources[k]).get('initDelayMs');
      var delay = raw === null ? NaN : Number(raw);
      if (isFinite(delay) && delay >= 0) return Math.min(delay, 120000);
    }
    return 0;
  }

  // A frame, or a short timeout when frames are paused (hidden tab): start-up must not stall.
  function nextFrame() {
    return new Promise(function (resolve) {
      var done = false;
      function finish() {
        if (!done) {
          done = true;
          resolve();
        }
      }
      window.requestAnimationFrame(finish);
      window.setTimeout(finish, 100);
    });
  }

  function wait(ms) {
    return new Promise(function (resolve) {
      window.setTimeout(resolve, ms);
    });
  }

  async function init() {
    resize();
    sprite = makeSprite(state.color);
    updateCamera();
    updateHud();
    var half = Math.ceil(state.particle_count / 2);
    seedRange(0, half);
    await nextFrame();
    seedRange(half, state.particle_count);
    await nextFrame();
    window.addEventListener('resize', resize);
    window.requestAnimationFrame(frame);
    var delay = readInitDelay();
    if (delay > 0) await wait(delay);
    isReady = true;
    updateHud();
    bridge.ready();
  }

  init().catch(function (error) {
    bridge.reportError('Particle field failed to start: ' + (error && error.message ? error.message : error));
  });
})();
