/*
 * Particle field target: particles flow through a 12 × 12 × 12 world-unit box centred on the
 * origin, projected onto a 2D canvas from a camera that always looks at the origin.
 * Parameter specs and defaults come from manifest.json through ../params.js.
 * `?initDelayMs=NNN` or `#initDelayMs=NNN` delays ready() to simulate a slow-starting target.
 */
(function () {
  'use strict';

  var params = window.SplitbrainParams.fromManifest();
  var modules = window.ParticlesModules;

  var MAX_PARTICLES = params.specs.particle_count.max;
  var MAX_STEP = 0.05; // seconds; longer gaps (hidden tab) do not teleport particles

  var state = params.defaults();
  var isReady = false;

  var particles = modules.simulation.create(MAX_PARTICLES);
  var canvas = document.getElementById('field');
  var fieldView = modules.fieldView.create(canvas, particles);
  var hud = {
    badge: document.getElementById('hud-badge'),
    speed: document.getElementById('hud-speed'),
    mode: document.getElementById('hud-mode'),
  };
  var lastTime = 0;

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
    particles.seedRange(0, state.particle_count);
  }

  function commit(next) {
    state = next;
    if (next.particle_count > particles.seeded()) particles.seedRange(particles.seeded(), next.particle_count);
    fieldView.useColor(next.color);
    fieldView.updateCamera(state);
    updateHud();
  }

  // ---- animation ---------------------------------------------------------------------------

  function frame(time) {
    var dt = lastTime ? Math.min(MAX_STEP, (time - lastTime) / 1000) : 0;
    lastTime = time;
    particles.step(state, dt);
    fieldView.draw(state);
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
    fieldView.resize();
    fieldView.useColor(state.color);
    fieldView.updateCamera(state);
    updateHud();
    var half = Math.ceil(state.particle_count / 2);
    particles.seedRange(0, half);
    await nextFrame();
    particles.seedRange(half, state.particle_count);
    await nextFrame();
    window.addEventListener('resize', fieldView.resize);
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
