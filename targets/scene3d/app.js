/*
 * 3D scene target: a tiny hand-written WebGL renderer. One directional light (the sun) with
 * Blinn-Phong shading, hemisphere ambient light, ACES tone mapping, planar projected shadows
 * (stencil-masked so overlaps do not darken twice), a procedural ground grid with distance fog
 * and a sky with a sun disc. Wireframe mode draws polygon edges with barycentric coordinates.
 * Parameter specs and defaults come from manifest.json through ../params.js.
 */
(function () {
  'use strict';

  var params = window.SplitbrainParams.fromManifest();
  var modules = window.Scene3dModules;

  var state = params.defaults();
  var isReady = false;
  var angle = 0.6; // main object's spin, radians
  var lastTime = 0;

  var canvas = document.getElementById('scene');
  var notice = document.getElementById('notice');
  var hud = {
    badge: document.getElementById('hud-badge'),
    shape: document.getElementById('hud-shape'),
    fov: document.getElementById('hud-fov'),
    spin: document.getElementById('hud-spin'),
    camera: document.getElementById('hud-camera'),
  };

  var renderer = modules.renderer.create(canvas);

  var bridge = window.SplitbrainBridge.connect({ apply: apply, reset: reset, getState: getState });

  // ---- parameters -------------------------------------------------------------------------

  function getState() {
    return params.copy(state);
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
    updateHud();
  }

  // ---- animation -------------------------------------------------------------------------

  function frame(time) {
    var dt = lastTime ? Math.min(0.1, (time - lastTime) / 1000) : 0;
    lastTime = time;
    angle = (angle + ((state.spin_speed * Math.PI) / 180) * dt) % (Math.PI * 2);
    renderer.draw(state, angle);
    window.requestAnimationFrame(frame);
  }

  // ---- HUD ----------------------------------------------------------------------------------

  function short(number) {
    return String(Math.round(number * 10) / 10);
  }

  function updateHud() {
    hud.shape.textContent = state.shape + (state.wireframe ? ' (wireframe)' : '');
    hud.fov.textContent = short(state.field_of_view) + '° FOV';
    hud.spin.textContent = short(state.spin_speed) + '°/s';
    hud.camera.textContent =
      'camera ' + state.position.map(short).join(', ') + ' → ' + state.look_at.map(short).join(', ');
    if (hud.badge.className.indexOf('error') < 0) {
      hud.badge.textContent = isReady ? 'ready' : 'starting…';
      hud.badge.className = 'badge ' + (isReady ? 'ready' : 'starting');
    }
  }

  // ---- start-up -----------------------------------------------------------------------------

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

  async function init() {
    updateHud();
    renderer.resize();
    var ok = false;
    try {
      ok = renderer.init();
    } catch (error) {
      bridge.reportError('3D scene: ' + (error && error.message ? error.message : error));
    }
    if (!ok) {
      notice.textContent =
        'WebGL is not available in this browser, so the 3D scene cannot be drawn. Parameters still apply.';
      notice.hidden = false;
      hud.badge.textContent = 'no WebGL';
      hud.badge.className = 'badge error';
    }
    window.addEventListener('resize', window.SplitbrainBridge.guard(renderer.resize));
    renderer.draw(state, angle);
    await nextFrame();
    window.requestAnimationFrame(frame);
    isReady = true;
    updateHud();
    bridge.ready();
  }

  init().catch(function (error) {
    bridge.reportError('3D scene failed to start: ' + (error && error.message ? error.message : error));
  });
})();
