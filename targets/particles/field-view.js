/* Particle field target: the camera, the projection onto the canvas and the drawing of box, particles and vectors. */
(function (modules) {
  'use strict';

  var HALF = modules.simulation.HALF;
  var FIELD_OF_VIEW = Math.PI / 3; // across the shorter side of the canvas
  var NEAR = 0.1;
  var VECTOR_SECONDS = 0.1; // a vector shows where the particle will be this much later
  var VECTOR_MAX = 2.5; // world units

  function cross(a, b) {
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  }

  function normalize(v) {
    var length = Math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    return length > 1e-9 ? [v[0] / length, v[1] / length, v[2] / length] : null;
  }

  function hexToRgb(hex) {
    var n = parseInt(hex.slice(1), 16);
    return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  }

  // Draws the particles of a simulation, as seen from the camera at state.position looking at the origin.
  function create(canvas, particles) {
    var context = canvas.getContext('2d');
    var view = { width: 1, height: 1, ratio: 1, focal: 1, background: null };
    var camera = { px: 0, py: 0, pz: 0, distance: 1, r: [1, 0, 0], u: [0, 1, 0], f: [0, 0, -1] };
    var sprite = null;
    var spriteColor = null;
    var vectorColor = 'rgba(235, 245, 255, 0.45)';
    var x = particles.x;
    var y = particles.y;
    var z = particles.z;
    var vx = particles.vx;
    var vy = particles.vy;
    var vz = particles.vz;
    var phase = particles.phase;
    var jitter = particles.jitter;

    function updateCamera(state) {
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

    function draw(state) {
      var count = Math.min(state.particle_count, particles.seeded());
      context.fillStyle = view.background;
      context.fillRect(0, 0, view.width, view.height);
      drawBox();
      if (state.show_vectors) drawVectors(count);
      drawParticles(count);
    }

    function useColor(color) {
      if (sprite && color === spriteColor) return;
      sprite = makeSprite(color);
      spriteColor = color;
    }

    return { updateCamera: updateCamera, useColor: useColor, resize: resize, draw: draw };
  }

  modules.fieldView = { create: create };
})((window.ParticlesModules = window.ParticlesModules || {}));
